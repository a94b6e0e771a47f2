/**
 * Issue 19, in the real VS Code with workspace trust on (`ACP_TRUST=untrusted node scripts/testIntegration.mjs`):
 * the folder is someone else's repository, untrusted, and its .vscode/settings.json and .vscode/mcp.json name
 * a program that writes a marker file. The chat, the doctor, Send to Copilot and every command of ours run;
 * the marker never appears, and the chat says what Restricted Mode is and how to trust the folder.
 * Registered only in that run (the launcher greps for "Restricted Mode").
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { CheckAgentsResult } from '../../src/features/doctor/vscode/checkAgents';
import type { AcpAgentsApi } from '../../src/chatHost';
import {
  closeAllEditors,
  eventually,
  EXTENSION_ID,
  getApi,
  installPrompts,
  showChatView,
} from './support/harness';
import { requestScreenshot } from './support/screenshot';

const marker = process.env.ACP_UNTRUSTED_MARKER;

if (process.env.ACP_TRUST === 'untrusted' && marker) {
  describe('Restricted Mode: nothing from an untrusted workspace runs (issue 19)', () => {
    let api: AcpAgentsApi;
    let prompts: ReturnType<typeof installPrompts>;

    before(async () => {
      api = await getApi();
      prompts = installPrompts(api);
    });

    after(async () => {
      prompts.restore();
      await closeAllEditors();
    });

    afterEach(() => {
      assert.equal(existsSync(marker), false, 'a program the workspace named was run');
    });

    it("is untrusted, and the workspace's agents are not offered", () => {
      assert.equal(vscode.workspace.isTrusted, false);
      // VS Code itself hides the workspace's value of a restricted setting in Restricted Mode.
      assert.equal(vscode.workspace.getConfiguration('acpAgents').get('defaultAgent'), 'copilot');
      const offered = api.catalog.agents.agents.map((agent) => agent.id);
      assert.ok(!offered.includes('repo-agent'), offered.join(', '));
    });

    it('chat: no agent starts; a Restricted notice with Manage Workspace Trust; the status bar says Restricted', async () => {
      await showChatView();
      await vscode.commands.executeCommand('acpAgents.newChat');
      await eventually('the untrusted status', () => api.chat.currentStatus.error?.kind === 'untrusted');
      await eventually('the status bar', () => /Restricted/.test(api.statusBar.text) && api.statusBar.text);
      // What every view of the chat is given: the untrusted state, which the page shows as the notice.
      assert.equal(api.chat.viewState().status.error?.kind, 'untrusted');
      // Under code-server the page itself is checked too: a screenshot asked to wait for the button is
      // refused (the test fails) when the view does not show it.
      await requestScreenshot('restricted-mode-chat', { waitForText: 'Manage Workspace Trust' });
    });

    it('the doctor starts nothing and its report starts with the trust state', async () => {
      const result = (await vscode.commands.executeCommand('acpAgents.checkAgents')) as CheckAgentsResult;
      assert.ok(result.diagnoses.length > 0);
      for (const diagnosis of result.diagnoses) {
        assert.equal(diagnosis.notChecked, 'not checked: this workspace is not trusted');
      }
      const firstParagraph = result.markdown.split('\n\n')[2] ?? '';
      assert.match(firstParagraph, /^\*\*Workspace trust: Restricted Mode\.\*\*/);
      assert.match(result.markdown, /Repo agent/, 'the workspace agents are listed, unrun');
      await closeAllEditors();
    });

    it('Send to Copilot and every other command start nothing; MCP servers are user-only', async () => {
      prompts.answerText('hello from an untrusted folder');
      await Promise.resolve(vscode.commands.executeCommand('acpAgents.sendToCopilot')).catch(() => undefined);
      const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
        contributes: { commands: { command: string }[] };
      };
      for (const { command } of manifest.contributes.commands) {
        // Each with a bound: a command waiting on a dialog must not stall the run.
        await Promise.race([
          Promise.resolve(vscode.commands.executeCommand(command)).catch(() => undefined),
          new Promise((resolve) => setTimeout(resolve, 5000)),
        ]);
      }
      const servers = await api.mcp.servers();
      assert.deepEqual(
        servers.filter((server) => server.name.startsWith('repo-')).map((server) => server.name),
        [],
      );
      assert.equal(prompts.questions('modal').filter((q) => /MCP server/.test(q.message)).length, 0);
      await closeAllEditors();
    });
  });
}
