/**
 * A trusted folder whose own settings define an agent: that program runs only once the user allowed its
 * command line, asked once before it first runs (as VS Code asks before a folder's automatic tasks), the
 * answer kept until the definition changes or "ACP: Reset Consent to Workspace Programs" forgets it.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/chatHost';
import type { CheckAgentsResult } from '../../src/features/doctor/vscode/checkAgents';
import { ask, closeAllEditors, eventually, getApi, installPrompts, workspaceRoot } from './support/harness';

describe("consent to an agent the workspace's own settings define", () => {
  const settingsDir = path.join(workspaceRoot(), '.vscode');
  const markerDir = mkdtempSync(path.join(os.tmpdir(), 'acp-workspace-agent-'));
  const marker = path.join(markerDir, 'ran');
  let api: AcpAgentsApi;
  let prompts: ReturnType<typeof installPrompts>;
  let previousAgent: string;

  const demoAgentJs = (): string => {
    const demo = api.chat.agentsOffered.find((agent) => agent.id === 'demo');
    assert.ok(demo);
    return demo.args[0] ?? '';
  };
  const repoAgent = () => api.chat.agentsOffered.find((agent) => agent.label === 'Repo agent');
  const questions = () =>
    prompts.questions('modal').filter((q) => /Run the agent "Repo agent"/.test(q.message));

  before(async () => {
    api = await getApi();
    prompts = installPrompts(api);
    previousAgent = api.chat.agent.id;
    await vscode.commands.executeCommand('acpAgents.resetMcpConsent');
    // The demo agent behind a line that leaves a marker: the folder's program, as a repository would name it.
    const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); require(${JSON.stringify(demoAgentJs())});`;
    await vscode.workspace.getConfiguration('acpAgents').update(
      'agents',
      [
        {
          name: 'Repo agent',
          command: process.execPath,
          args: ['-e', script],
          env: { ELECTRON_RUN_AS_NODE: '1', TEST_AGENT_STATE_DIR: path.join(markerDir, 'state') },
        },
      ],
      vscode.ConfigurationTarget.Workspace,
    );
    await eventually('the workspace agent offered', () => repoAgent()?.origin !== undefined);
  });

  after(async () => {
    await api.chat.selectAgent(previousAgent).catch(() => undefined);
    await vscode.workspace
      .getConfiguration('acpAgents')
      .update('agents', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('acpAgents.resetMcpConsent');
    prompts.restore();
    if (existsSync(settingsDir) && readdirSync(settingsDir).every((name) => name === 'settings.json')) {
      rmSync(settingsDir, { recursive: true, force: true });
    }
    rmSync(markerDir, { recursive: true, force: true });
  });

  it('asks before it first runs, naming the command line; refused, nothing runs and the chat says why', async () => {
    prompts.answerModal('Don’t Allow');
    const agent = repoAgent();
    assert.ok(agent);
    await vscode.commands.executeCommand('acpAgents.newChat');
    await api.chat.selectAgent(agent.id);
    await api.chat.connectActive();
    await eventually('the refusal', () => api.chat.currentStatus.error?.kind === 'not_allowed');
    assert.equal(existsSync(marker), false, 'the program did not run');
    assert.equal(questions().length, 1);
    assert.match(questions()[0]?.detail ?? '', /define it\. It runs:\n\n.*node.* -e 'require\(/);
    assert.match(api.chat.currentStatus.error?.message ?? '', /you did not allow it to run/);
    // Kept: asking to connect again asks nothing and runs nothing.
    await api.chat.connectActive();
    assert.equal(questions().length, 1);
    assert.equal(existsSync(marker), false);
    // Nor does the doctor start it.
    const result = (await vscode.commands.executeCommand('acpAgents.checkAgents')) as CheckAgentsResult;
    const diagnosis = result.diagnoses.find((d) => d.agent.label === 'Repo agent');
    assert.equal(diagnosis?.notChecked, 'not checked: you did not allow this workspace’s agent to run');
    assert.equal(existsSync(marker), false);
    assert.equal(questions().length, 1);
    await closeAllEditors();
  });

  it('allowed after a reset, it runs and answers; the answer is kept', async () => {
    assert.equal(await vscode.commands.executeCommand('acpAgents.resetMcpConsent'), 1);
    prompts.answerModal('Allow');
    const reply = await ask(api, 'hello');
    assert.equal(reply.reply, 'You said: hello');
    assert.equal(existsSync(marker), true);
    assert.equal(questions().length, 2);
    await vscode.commands.executeCommand('acpAgents.restartAgent').then(undefined, () => undefined);
    assert.equal((await ask(api, 'again')).reply, 'You said: again');
    assert.equal(questions().length, 2, 'not asked again');
  });
});
