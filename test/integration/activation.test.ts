import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import { requestScreenshot } from './support/screenshot';
import { eventually, EXTENSION_ID } from './support/harness';

// This file sorts first in the run (test/integration/index.ts loads the suites in name order) and no
// suite activates the extension at load time, so the first test sees VS Code as it started.
describe('activation', () => {
  it('installs the extension under its publisher.name id', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    assert.equal(extension.packageJSON.displayName, 'ACP Agents');
  });

  it('stays inactive until the ACP Agents view opens, and opening it activates the extension', async () => {
    const extension = vscode.extensions.getExtension<AcpAgentsApi>(EXTENSION_ID);
    assert.ok(extension);
    // Lazy: a window that never shows the chat pays nothing for it.
    assert.equal(extension.isActive, false, 'the extension was active before its view was opened');
    await vscode.commands.executeCommand('workbench.view.extension.acpAgents');
    await eventually('the extension to activate on view open', () => extension.isActive, 10_000);
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
    const extension = vscode.extensions.getExtension<AcpAgentsApi>(EXTENSION_ID);
    assert.ok(extension);
    const api = await extension.activate();
    await vscode.commands.executeCommand('workbench.view.extension.acpAgents');
    // The view's script loaded under its CSP, built the chat and said `ready`: checked here in the
    // extension host, with or without a launcher that can take pictures.
    await eventually('the chat webview to say ready', () => api.chat.readyViewCount > 0);
    // The picture (code-server runs): requestScreenshot checks it shows the rendered chat.
    await requestScreenshot('vscode-chat-view', { waitForChatView: true });
  });
});
