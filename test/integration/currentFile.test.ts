/**
 * The active editor's file offered on the composer, in a real VS Code: it follows the active editor,
 * never offers an untitled document or a file outside the workspace, and goes away when
 * `acpAgents.chat.offerCurrentFile` is off.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import { closeAllEditors, eventually, getApi, Settings, workspaceRoot } from './support/harness';

describe('current file: the active editor offered on the composer (issue 21)', () => {
  let api: AcpAgentsApi;
  const settings = new Settings();
  let outside: string;

  before(async () => {
    api = await getApi();
    outside = mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
  });

  after(async () => {
    await settings.restore();
    await closeAllEditors();
    rmSync(outside, { recursive: true, force: true });
  });

  /** The current file every view is told of (its name), or '' for none. */
  const offered = (): string => api.chat.viewState().currentFile?.name ?? '';

  it('follows the active editor, offers only workspace files, and stops when turned off', async () => {
    const readme = vscode.Uri.file(path.join(workspaceRoot(), 'README.md'));
    await vscode.window.showTextDocument(readme);
    await eventually('README.md to be offered', () => offered() === 'README.md');
    assert.equal(api.chat.viewState().currentFile?.uri, readme.toString());

    const untitled = await vscode.workspace.openTextDocument({ content: 'scratch' });
    await vscode.window.showTextDocument(untitled);
    await eventually('no file for an untitled document', () => offered() === '');

    const elsewhere = path.join(outside, 'secret.txt');
    writeFileSync(elsewhere, 'not in the workspace');
    await vscode.window.showTextDocument(vscode.Uri.file(elsewhere));
    await eventually('no file for one outside the workspace', () => offered() === '');

    await vscode.window.showTextDocument(readme);
    await eventually('README.md again', () => offered() === 'README.md');
    await settings.set('chat.offerCurrentFile', false);
    await eventually('nothing while the setting is off', () => offered() === '');
    await settings.restore();
    await eventually('README.md once it is on again', () => offered() === 'README.md');
  });
});
