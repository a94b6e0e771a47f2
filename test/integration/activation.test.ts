import { strict as assert } from 'node:assert';
import { existsSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as vscode from 'vscode';
import { requestScreenshot } from './support/screenshot';

const EXTENSION_ID = 'acp-agents.acp-agents';

/** Polls `condition` until it holds or `timeoutMs` passes. */
async function eventually(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      return false;
    }
    await sleep(100);
  }
  return true;
}

describe('activation', () => {
  it('installs the extension under its publisher.name id', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    assert.equal(extension.packageJSON.displayName, 'ACP Agents');
  });

  it('opening the ACP Agents view container shows the chat view and activates the extension', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    // The view's contribution is the only activation event: opening it must activate the extension.
    await vscode.commands.executeCommand('workbench.view.extension.acpAgents');
    assert.ok(await eventually(() => extension.isActive, 10_000), 'extension did not activate on view open');
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('acpAgents.chat.focus'), 'the chat view has no focus command');
    await vscode.commands.executeCommand('acpAgents.chat.focus');
  });

  it('activates explicitly without throwing', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('renders the chat view (screenshot vscode-chat-view)', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.acpAgents');
    // Give the webview a moment to load its bundle; the launcher also waits for rendered content.
    await sleep(2_000);
    const shot = await requestScreenshot('vscode-chat-view', { waitForChatView: true });
    if (shot) {
      assert.ok(
        existsSync(shot.path) && statSync(shot.path).size > 1_000,
        `${shot.path} is missing or empty`,
      );
      assert.equal(shot.chatViewRendered, true, 'the chat webview showed no content');
    }
  });
});
