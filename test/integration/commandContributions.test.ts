/**
 * Issue 4: what the extension contributes to VS Code's command palette and menus: every command with
 * category "ACP", the editor context menu entries, and the Send to Copilot key binding.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi } from './support/harness';

const PALETTE_COMMANDS = [
  'acpAgents.sendToCopilot',
  'acpAgents.sendToAgent',
  'acpAgents.editor.sendToCopilot',
  'acpAgents.editor.sendToAgent',
  'acpAgents.newChat',
  'acpAgents.cancel',
  'acpAgents.selectAgent',
  'acpAgents.restartAgent',
  'acpAgents.showLog',
  'acpAgents.checkAgents',
  'acpAgents.switchChat',
  'acpAgents.addFileToChat',
  'acpAgents.review.keep',
  'acpAgents.review.undo',
  'acpAgents.openChatInEditor',
  'acpAgents.view.openChatInEditor',
  'acpAgents.newChatInEditor',
  'acpAgents.view.showChats',
  'acpAgents.tab.newChat',
  'acpAgents.tab.showChats',
  'acpAgents.setMcpSecret',
  'acpAgents.resetMcpConsent',
  'acpAgents.signOut',
  'acpAgents.addAgent',
  'acpAgents.updateAgents',
  'acpAgents.removeAgent',
  'acpAgents.focusChat',
  'acpAgents.newChatInWorktree',
  'acpAgents.askSeveralAgents',
  'acpAgents.compare.openChat',
  'acpAgents.compare.applyOne',
  'acpAgents.compare.discardRest',
  'acpAgents.compare.openDiff',
  'acpAgents.hunks.keep',
  'acpAgents.hunks.undo',
  'acpAgents.hunks.keepFile',
  'acpAgents.hunks.undoFile',
  'acpAgents.hunks.next',
  'acpAgents.hunks.previous',
  'acpAgents.hunks.nextFile',
  'acpAgents.hunks.previousFile',
  'acpAgents.hunks.askForChange',
  'acpAgents.editor.askForChange',
  'acpAgents.hunks.openDiff',
  // The "Ask for a change…" notes' actions in the comments UI (not in the palette).
  'acpAgents.notes.edit',
  'acpAgents.notes.delete',
  'acpAgents.notes.save',
  'acpAgents.notes.cancel',
];

describe('commands: what the palette and menus offer (issue 4)', () => {
  before(async () => {
    await getApi(); // activates the extension, which registers its commands
  });

  it('registers every command, each with category ACP', async () => {
    const registered = await vscode.commands.getCommands(true);
    for (const command of PALETTE_COMMANDS) {
      assert.ok(registered.includes(command), `${command} is not registered`);
    }
    const contributed = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes
      .commands as Array<{
      command: string;
      category?: string;
    }>;
    assert.deepEqual(
      contributed.map((c) => c.command).sort(),
      [...PALETTE_COMMANDS].sort(),
      'the contributed commands',
    );
    for (const command of contributed) {
      assert.equal(command.category, 'ACP', `${command.command} has category ${command.category}`);
    }
  });

  it('labels the editor context menu entries "ACP:" and binds Send to Copilot to a chord VS Code leaves free', async () => {
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes as {
      commands: Array<{ command: string; title: string }>;
      menus: Record<string, Array<{ command: string }>>;
      keybindings: Array<{ command: string; key: string; mac?: string }>;
    };
    const titles = contributes.menus['editor/context']!.map(
      (item) => contributes.commands.find((command) => command.command === item.command)?.title,
    );
    assert.deepEqual(titles, [
      'ACP: Send to Copilot',
      'ACP: Send to Agent…',
      'ACP: Ask the Agent for a Change…',
    ]);
    const binding = contributes.keybindings.find((item) => item.command === 'acpAgents.sendToCopilot');
    assert.deepEqual([binding?.key, binding?.mac], ['ctrl+alt+a', 'cmd+alt+a']);
    // Ctrl+Alt+I is VS Code's own "Open Chat": ours must not shadow it.
    assert.ok(!contributes.keybindings.some((item) => item.key === 'ctrl+alt+i'));
  });

  it('puts the chat’s actions in the view’s and the chat tab’s title, as Copilot Chat does', () => {
    const menus = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON.contributes.menus as Record<
      string,
      Array<{ command: string; when?: string; group?: string }>
    >;
    const inTitle = (menu: string, when: string): string[] =>
      menus[menu]!.filter((item) => item.when === when && item.group?.startsWith('navigation'))
        .sort((a, b) => (a.group ?? '').localeCompare(b.group ?? ''))
        .map((item) => item.command);
    assert.deepEqual(inTitle('view/title', 'view == acpAgents.chat'), [
      'acpAgents.newChat',
      'acpAgents.view.showChats',
      'acpAgents.view.openChatInEditor',
      'acpAgents.showLog',
    ]);
    assert.deepEqual(inTitle('editor/title', "activeWebviewPanelId == 'acpAgents.chatPanel'"), [
      'acpAgents.tab.newChat',
      'acpAgents.tab.showChats',
      'acpAgents.showLog',
    ]);
  });
});
