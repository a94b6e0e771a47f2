import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { ChatViewProvider } from './chatViewProvider';
import { EditorContextSender } from './editorContextSender';
import type { UserPrompts } from './userPrompts';

export interface CommandDeps {
  readonly chat: ChatController;
  readonly view: ChatViewProvider;
  readonly prompts: UserPrompts;
  readonly log: vscode.LogOutputChannel;
}

const ADD_AGENT = 'add-agent';

/** A command's work, with its failure logged and shown (never an unhandled rejection). */
type Run = (
  name: string,
  work: (...args: never[]) => Promise<unknown>,
) => (...args: never[]) => Promise<void>;

/** The palette commands (category "ACP"), the editor and explorer menu entries behind them. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const run: Run =
    (name, work) =>
    async (...args) => {
      try {
        await work(...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        deps.log.error(`${name} failed: ${message}`);
        void vscode.window.showErrorMessage(`ACP Agents: ${message}`);
      }
    };
  return [...sendCommands(deps, run), ...chatCommands(deps, run)];
}

/** Send to Copilot, Send to Agent… (the palette's and the editor context menu's). */
function sendCommands({ chat, view, prompts, log }: CommandDeps, run: Run): vscode.Disposable[] {
  const sender = new EditorContextSender(chat, view, prompts, log);
  // The editor context menu has its own entries: there the title shows without its category, so it carries "ACP:".
  return [
    ...['acpAgents.sendToCopilot', 'acpAgents.editor.sendToCopilot'].map((id) =>
      vscode.commands.registerCommand(
        id,
        run('Send to Copilot', () => sender.sendToCopilot()),
      ),
    ),
    ...['acpAgents.sendToAgent', 'acpAgents.editor.sendToAgent'].map((id) =>
      vscode.commands.registerCommand(
        id,
        run('Send to Agent', async () => {
          const agentId = await pickAgent(chat, 'Send to Agent');
          if (agentId) {
            await sender.sendTo(agentId);
          }
        }),
      ),
    ),
  ];
}

/** The window's chat: new, stop, agent, switch, restart, sign out, log, focus, add a file. */
function chatCommands({ chat, view, log }: CommandDeps, run: Run): vscode.Disposable[] {
  const register = (
    id: string,
    name: string,
    work: (...args: never[]) => Promise<unknown>,
  ): vscode.Disposable => vscode.commands.registerCommand(id, run(name, work));
  return [
    register('acpAgents.newChat', 'New Chat', async () => {
      // The chat changes first: revealing the view is a trip through the window, and a message sent
      // meanwhile (New Chat, then typing at once) belongs to the new chat, not the one being left.
      await Promise.all([chat.newChat(), view.reveal()]);
    }),
    register('acpAgents.cancel', 'Cancel', () => chat.cancel()),
    register('acpAgents.selectAgent', 'Select Agent', async () => {
      const agentId = await pickAgent(chat, 'Select Agent');
      if (agentId) {
        await chat.selectAgent(agentId);
      }
    }),
    register('acpAgents.switchChat', 'Switch Chat', async () => {
      const chatId = await pickChat(chat);
      if (chatId) {
        await view.reveal();
        await chat.switchChat(chatId);
      }
    }),
    register('acpAgents.restartAgent', 'Restart Agent', () => chat.restart()),
    register('acpAgents.signOut', 'Sign Out of Agent', () => chat.signOut()),
    vscode.commands.registerCommand('acpAgents.showLog', () => log.show(true)),
    // Shows the chat and puts the cursor in its message box (the webview focuses it when focused).
    register('acpAgents.focusChat', 'Open Chat', () => view.focus()),
    register(
      'acpAgents.addFileToChat',
      'Add File to Chat',
      async (uri?: vscode.Uri, selected?: vscode.Uri[]) => {
        const files = selected && selected.length > 0 ? selected : uri ? [uri] : [];
        await view.reveal();
        for (const file of files) {
          chat.addAttachment({ uri: file.toString(), name: path.basename(file.fsPath) });
        }
      },
    ),
  ];
}

/** The agents offered, the current one marked, and Add Agent… last; undefined when dismissed or adding. */
async function pickAgent(chat: ChatController, title: string): Promise<string | undefined> {
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
}

/** Every chat, most recently used first; the id of the one picked. */
async function pickChat(chat: ChatController): Promise<string | undefined> {
  const items = chat.chatList().map((item) => ({
    label: item.title,
    description: `${item.agentLabel}${item.running ? ' · working' : ''}`,
    detail: new Date(item.updatedAt).toLocaleString(),
    chatId: item.chatId,
  }));
  return (await vscode.window.showQuickPick(items, { title: 'Switch Chat', placeHolder: 'Choose a chat' }))
    ?.chatId;
}
