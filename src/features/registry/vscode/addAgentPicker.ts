import * as vscode from 'vscode';
import type { AgentChoice } from '../chat/agentChoices';
import type { LoadedRegistry } from '../core/registryStore';

/** The questions Add Agent asks: a seam, so the integration tests answer them without a QuickPick. */
export interface AddAgentPrompts {
  /** The agent to install, 'custom' for a command line, undefined when dismissed. */
  pickAgent(
    choices: Promise<{ registry: LoadedRegistry; choices: readonly AgentChoice[] }>,
  ): Promise<AgentChoice | 'custom' | undefined>;
  commandLine(): Promise<string | undefined>;
  agentName(suggested: string): Promise<string | undefined>;
  agentToRemove(names: readonly string[]): Promise<string | undefined>;
}

type Item = vscode.QuickPickItem & { readonly choice?: AgentChoice | 'custom' };

/** A searchable QuickPick, open at once (busy while the registry loads). */
export class AddAgentPicker implements AddAgentPrompts {
  pickAgent(
    loading: Promise<{ registry: LoadedRegistry; choices: readonly AgentChoice[] }>,
  ): Promise<AgentChoice | 'custom' | undefined> {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = 'Add Agent';
    pick.placeholder = 'Search the ACP Registry';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.busy = true;
    const custom: Item = {
      label: '$(terminal) Custom agent…',
      description: 'any program that speaks ACP over stdio',
      choice: 'custom',
    };
    pick.items = [custom];
    loading.then(
      ({ registry, choices }) => {
        pick.busy = false;
        pick.title = `Add Agent — ${sourceLabel(registry)}`;
        pick.items = [
          ...choices.map((choice): Item => ({
            label: choice.label,
            description: choice.description,
            detail: choice.detail,
            choice,
          })),
          { label: '', kind: vscode.QuickPickItemKind.Separator },
          custom,
        ];
      },
      (error: unknown) => {
        pick.busy = false;
        pick.title = `Add Agent — the registry could not be read: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
    return new Promise((resolve) => {
      pick.onDidAccept(() => {
        resolve(pick.selectedItems[0]?.choice);
        pick.dispose();
      });
      pick.onDidHide(() => {
        resolve(undefined);
        pick.dispose();
      });
      pick.show();
    });
  }

  async commandLine(): Promise<string | undefined> {
    return vscode.window.showInputBox({
      title: 'Add a custom agent',
      prompt: 'The command that starts the agent in ACP mode (run without a shell)',
      placeHolder: 'e.g. npx -y @zed-industries/claude-code-acp   or   gemini --experimental-acp',
      ignoreFocusOut: true,
    });
  }

  async agentName(suggested: string): Promise<string | undefined> {
    return vscode.window.showInputBox({
      title: 'Add a custom agent',
      prompt: 'Its name in the agent picker',
      value: suggested,
      ignoreFocusOut: true,
    });
  }

  async agentToRemove(names: readonly string[]): Promise<string | undefined> {
    return vscode.window.showQuickPick(names, {
      title: 'Remove Agent',
      placeHolder: 'Agents in your user settings',
    });
  }
}

function sourceLabel(registry: LoadedRegistry): string {
  switch (registry.source.kind) {
    case 'network':
      return 'ACP Registry';
    case 'cache':
      return `offline: ACP Registry as of ${new Date(registry.source.fetchedAt).toLocaleDateString()}`;
    case 'snapshot':
      return 'offline: the list shipped with the extension';
    default:
      return 'ACP Registry';
  }
}
