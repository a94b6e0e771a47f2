import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PromptBlock } from '../core/promptBlocks';
import type { ChatController } from '../chat/chatController';
import type { ChatViewProvider } from './chatViewProvider';
import type { UserPrompts } from './userPrompts';

export interface CommandDeps {
  readonly chat: ChatController;
  readonly view: ChatViewProvider;
  readonly prompts: UserPrompts;
  readonly log: vscode.LogOutputChannel;
}

const COPILOT_ID = 'copilot';

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

  /** Sends the selection (else the whole file) with a prompt the user types, to `agentId` (else the current agent). */
  const sendEditorContext = async (agentId: string | undefined): Promise<void> => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      throw new Error('Open a file (and select some code) first.');
    }
    const agents = chat.agentsOffered;
    const target = agentId && agents.some((a) => a.id === agentId) ? agentId : undefined;
    const agentName = agents.find((a) => a.id === (target ?? chat.agent.id))?.label ?? chat.agent.label;
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
    if (target && target !== chat.agent.id) {
      await chat.selectAgent(target);
    }
    const range = whole ? undefined : selection;
    const text = editor.document.getText(range);
    const uri = editor.document.uri.with({
      fragment: range ? `L${range.start.line + 1}-L${range.end.line + 1}` : '',
    });
    const blocks: PromptBlock[] = [
      { type: 'text', text: question.trim() },
      { type: 'resource', uri: uri.toString(), text, mimeType: mimeOf(editor.document.languageId) },
    ];
    await view.reveal();
    void chat.sendPrompt(blocks).catch((error: unknown) => log.error(`Send failed: ${String(error)}`));
  };

  const pickAgent = async (title: string): Promise<string | undefined> => {
    const items = chat.agentsOffered.map((agent) => ({
      label: agent.label,
      description: agent.id === chat.agent.id ? 'current' : undefined,
      detail: agent.description,
      id: agent.id,
    }));
    return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Choose an agent' }))?.id;
  };

  return [
    vscode.commands.registerCommand(
      'acpAgents.sendToCopilot',
      run('Send to Copilot', () => sendEditorContext(COPILOT_ID)),
    ),
    vscode.commands.registerCommand(
      'acpAgents.sendToAgent',
      run('Send to Agent', async () => {
        const agentId = await pickAgent('Send to Agent');
        if (agentId) {
          await sendEditorContext(agentId);
        }
      }),
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
    vscode.commands.registerCommand('acpAgents.showLog', () => log.show(true)),
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
