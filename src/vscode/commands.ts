import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PromptBlock } from '../core/session/promptBlocks';
import type { ChatController } from '../chat/chatController';
import { findCopilotAgent } from '../chat/copilotAgent';
import { lineRangeFragment } from '../chat/selectionRange';
import type { ChatViewProvider } from './chatViewProvider';
import { copilotAgentName } from './settings';
import type { UserPrompts } from './userPrompts';

export interface CommandDeps {
  readonly chat: ChatController;
  readonly view: ChatViewProvider;
  readonly prompts: UserPrompts;
  readonly log: vscode.LogOutputChannel;
}

const SET_UP = 'Set Up Copilot';
/** GitHub Copilot's entry in the ACP Registry. */
const COPILOT_REGISTRY_ID = 'github-copilot';
const ADD_AGENT = 'add-agent';

/** The palette commands (category "ACP"), the editor and explorer menu entries behind them. */
export function registerCommands({ chat, view, prompts, log }: CommandDeps): vscode.Disposable[] {
  const run =
    (name: string, work: (...args: never[]) => Promise<unknown>) =>
    async (...args: never[]): Promise<void> => {
      try {
        await work(...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`${name} failed: ${message}`);
        void vscode.window.showErrorMessage(`ACP Agents: ${message}`);
      }
    };

  /** Sends the selection (else the whole file) with a question the user types, to `agentId`. */
  const sendEditorContext = async (agentId: string): Promise<void> => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      throw new Error('Open a file (and select some code) first.');
    }
    const agentName = chat.agentsOffered.find((a) => a.id === agentId)?.label ?? agentId;
    // A question typed while the chat it would go to is busy would have nowhere to go: say so first.
    if (agentId === chat.agent.id && chat.activeChatRunning) {
      throw new Error(
        `${agentName} is still answering in this chat. Wait for it or press Stop, then send again.`,
      );
    }
    // A chat another window writes is read-only here: refused as its composer is, before the question.
    const refused = agentId === chat.agent.id ? chat.turns.sendRefusal(chat.windowSlot) : undefined;
    if (refused) {
      throw new Error(refused);
    }
    const selection = editor.selection;
    const whole = selection.isEmpty;
    const what = whole ? path.basename(editor.document.fileName) : 'the selection';
    const question = await prompts.text(
      `Ask ${agentName} about ${what}`,
      'e.g. Explain this, or: Add error handling',
    );
    if (question === undefined || question.trim() === '') {
      return;
    }
    if (agentId !== chat.agent.id) {
      await chat.selectAgent(agentId);
    }
    const range = whole ? undefined : selection;
    const text = editor.document.getText(range);
    const uri = editor.document.uri.with({
      fragment: range ? lineRangeFragment(range.start, range.end) : '',
    });
    const blocks: PromptBlock[] = [
      { type: 'text', text: question.trim() },
      { type: 'resource', uri: uri.toString(), text, mimeType: mimeOf(editor.document.languageId) },
    ];
    await view.reveal();
    // The turn runs on; a send that fails (the chat became busy meanwhile) is shown with the question, so it is not lost.
    void chat.sendPrompt(blocks).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`Send failed: ${message}`);
      void vscode.window.showErrorMessage(
        `ACP Agents: your question was not sent: "${question.trim()}". ${message}`,
      );
    });
  };

  /**
   * "Send to Copilot" goes to the Copilot agent (configured, named in `acpAgents.copilotAgent`, or
   * detected on PATH), starting it when needed. Without one it says so and lets the user set one up
   * or choose the current agent: never a silent swap.
   */
  const sendToCopilot = async (): Promise<void> => {
    // What can be checked before asking anything: with no editor, there is nothing to send.
    if (!vscode.window.activeTextEditor) {
      throw new Error('Open a file (and select some code) first.');
    }
    const choice = findCopilotAgent(chat.agentsOffered, copilotAgentName());
    if (choice.kind === 'found') {
      return sendEditorContext(choice.agent.id);
    }
    const current = chat.agent.label;
    const message =
      choice.kind === 'unknown_setting'
        ? `acpAgents.copilotAgent names "${choice.name}", which is not one of the agents.`
        : 'No GitHub Copilot agent is set up.';
    const answer = await prompts.modal(
      message,
      'Set Up Copilot installs GitHub Copilot from the ACP Registry and adds it for you. ' +
        'To use an agent you already have, name it in acpAgents.copilotAgent.',
      [SET_UP, `Send to ${current}`],
    );
    if (answer === SET_UP) {
      // Installs, adds and starts it, and makes it the one Send to Copilot uses from now on.
      const added = await vscode.commands.executeCommand<unknown>('acpAgents.addAgent', COPILOT_REGISTRY_ID);
      if (typeof added === 'string') {
        await vscode.workspace
          .getConfiguration('acpAgents')
          .update('copilotAgent', added, vscode.ConfigurationTarget.Global);
        await sendEditorContext(
          chat.agentsOffered.find((agent) => agent.label === added)?.id ?? chat.agent.id,
        );
      }
    } else if (answer === `Send to ${current}`) {
      await sendEditorContext(chat.agent.id);
    }
  };

  const pickAgent = async (title: string): Promise<string | undefined> => {
    const items = chat.agentsOffered.map((agent) => ({
      label: agent.label,
      description: agent.id === chat.agent.id ? 'current' : undefined,
      detail: agent.description,
      id: agent.id,
    }));
    const add = {
      label: '$(add) Add Agent…',
      description: 'from the ACP Registry, or a command line',
      id: ADD_AGENT,
    };
    const picked = (
      await vscode.window.showQuickPick([...items, add], { title, placeHolder: 'Choose an agent' })
    )?.id;
    if (picked === ADD_AGENT) {
      await vscode.commands.executeCommand('acpAgents.addAgent');
      return undefined;
    }
    return picked;
  };

  return [
    // The editor context menu has its own entries: there the title shows without its category, so it carries "ACP:".
    ...['acpAgents.sendToCopilot', 'acpAgents.editor.sendToCopilot'].map((id) =>
      vscode.commands.registerCommand(id, run('Send to Copilot', sendToCopilot)),
    ),
    ...['acpAgents.sendToAgent', 'acpAgents.editor.sendToAgent'].map((id) =>
      vscode.commands.registerCommand(
        id,
        run('Send to Agent', async () => {
          const agentId = await pickAgent('Send to Agent');
          if (agentId) {
            await sendEditorContext(agentId);
          }
        }),
      ),
    ),
    vscode.commands.registerCommand(
      'acpAgents.newChat',
      run('New Chat', async () => {
        await view.reveal();
        await chat.newChat();
      }),
    ),
    vscode.commands.registerCommand(
      'acpAgents.cancel',
      run('Cancel', () => chat.cancel()),
    ),
    vscode.commands.registerCommand(
      'acpAgents.selectAgent',
      run('Select Agent', async () => {
        const agentId = await pickAgent('Select Agent');
        if (agentId) {
          await chat.selectAgent(agentId);
        }
      }),
    ),
    vscode.commands.registerCommand(
      'acpAgents.switchChat',
      run('Switch Chat', async () => {
        const items = chat.chatList().map((item) => ({
          label: item.title,
          description: `${item.agentLabel}${item.running ? ' · working' : ''}`,
          detail: new Date(item.updatedAt).toLocaleString(),
          chatId: item.chatId,
        }));
        const picked = await vscode.window.showQuickPick(items, {
          title: 'Switch Chat',
          placeHolder: 'Choose a chat',
        });
        if (picked) {
          await view.reveal();
          await chat.switchChat(picked.chatId);
        }
      }),
    ),
    vscode.commands.registerCommand(
      'acpAgents.restartAgent',
      run('Restart Agent', () => chat.restart()),
    ),
    vscode.commands.registerCommand(
      'acpAgents.signOut',
      run('Sign Out of Agent', () => chat.signOut()),
    ),
    vscode.commands.registerCommand('acpAgents.showLog', () => log.show(true)),
    // Shows the chat and puts the cursor in its message box (the webview focuses it when focused).
    vscode.commands.registerCommand(
      'acpAgents.focusChat',
      run('Open Chat', () => view.reveal()),
    ),
    vscode.commands.registerCommand(
      'acpAgents.addFileToChat',
      run('Add File to Chat', async (uri?: vscode.Uri, selected?: vscode.Uri[]) => {
        const files = selected && selected.length > 0 ? selected : uri ? [uri] : [];
        await view.reveal();
        for (const file of files) {
          chat.addAttachment({ uri: file.toString(), name: path.basename(file.fsPath) });
        }
      }),
    ),
  ];
}

function mimeOf(languageId: string): string {
  return languageId === 'plaintext' ? 'text/plain' : `text/x-${languageId}`;
}
