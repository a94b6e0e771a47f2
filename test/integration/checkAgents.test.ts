/**
 * Issue 10: "ACP: Check Agents" in the real extension host — the agent doctor runs on the configured agents
 * (a working one, one that needs a sign-in, one whose command does not exist) and the known agents that are
 * not installed, and opens its report as a markdown preview.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AGENT_PRESETS } from '../../src/chat/agentPresets';
import { verdictOf } from '../../src/features/doctor/chat/doctorReport';
import type { CheckAgentsResult } from '../../src/features/doctor/vscode/checkAgents';
import { allTabs, closeAllEditors, eventually, EXTENSION_ID, getApi, Settings } from './support/harness';

describe('ACP: Check Agents (issue 10)', () => {
  const settings = new Settings();

  before(async () => {
    await getApi();
  });

  afterEach(async () => {
    await settings.restore();
    await closeAllEditors();
  });

  it("is in the palette and in the chat view's title menu", async () => {
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
    };
    assert.ok((await vscode.commands.getCommands(true)).includes('acpAgents.checkAgents'));
    assert.ok(
      manifest.contributes.menus['view/title']?.some(
        (item) => item.command === 'acpAgents.checkAgents' && item.when === 'view == acpAgents.chat',
      ),
      'no view/title entry for the chat view',
    );
  });

  it('explains a working, a signed-out and a missing agent in a markdown preview', async () => {
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath;
    assert.ok(extensionPath);
    const demo = (name: string, env: Record<string, string> = {}) => ({
      name,
      command: process.execPath,
      args: [path.join(extensionPath, 'dist', 'demo-agent.js')],
      env: { ELECTRON_RUN_AS_NODE: '1', ...env },
    });
    await settings.set('agents', [
      demo('Working agent'),
      demo('Signed-out agent', { TEST_AGENT_REQUIRE_AUTH: '1' }),
      { name: 'Missing agent', command: 'acp-no-such-agent-cli' },
    ]);

    const result = await vscode.commands.executeCommand<CheckAgentsResult>('acpAgents.checkAgents');
    assert.ok(result, 'the command returns its findings');
    const verdicts = Object.fromEntries(result.diagnoses.map((d) => [d.agent.label, verdictOf(d)]));
    assert.equal(verdicts['Working agent'], 'ready');
    assert.equal(verdicts['Signed-out agent'], 'not signed in');
    assert.equal(verdicts['Missing agent'], 'not installed');
    // Every known agent is in the report, installed or not.
    for (const preset of AGENT_PRESETS) {
      assert.ok(
        result.diagnoses.some((d) => d.agent.command === preset.command),
        `${preset.label} is not in the report`,
      );
    }

    const { markdown } = result;
    assert.match(markdown, /\| Working agent \| ✓ ready \| yes \| \d+ ms \| yes \|/);
    assert.match(markdown, /\| Signed-out agent \| ! not signed in \| yes \| \d+ ms \| no \|/);
    assert.match(markdown, /Not signed in: the agent answered "Authentication required/);
    assert.match(markdown, /\*\*Fix:\*\* Sign in: \*\*Test login\*\*/);
    assert.match(markdown, /`acp-no-such-agent-cli` was not found on PATH/);
    assert.match(markdown, /ACP protocol version 1/);

    assert.ok(existsSync(result.reportUri.fsPath), 'the report is written to global storage');
    assert.equal(readFileSync(result.reportUri.fsPath, 'utf8'), markdown);
    await eventually('the markdown preview of the report', () =>
      allTabs().some((tab) => /agent-check\.md/.test(tab.label) && /preview/i.test(tab.label)),
    );
  });
});
