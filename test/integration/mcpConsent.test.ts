/**
 * Issue 19: a workspace's `.vscode/mcp.json` server reaches agents only after the user allowed it — asked
 * once, remembered, asked again when the definition changes, and forgotten by "ACP: Reset MCP Server
 * Consent". `${env:…}` is filled in only for an allowed server.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/chatHost';
import { eventually, getApi, installPrompts, workspaceRoot } from './support/harness';

describe('MCP consent for workspace servers (issue 19)', () => {
  const dir = path.join(workspaceRoot(), '.vscode');
  const file = path.join(dir, 'mcp.json');
  let api: AcpAgentsApi;
  let prompts: ReturnType<typeof installPrompts>;

  const writeConfig = (args: string[]): void => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      file,
      JSON.stringify({
        servers: { 'repo-mcp': { command: 'repo-mcp-server', args, env: { HOME_DIR: '${env:HOME}' } } },
      }),
    );
  };
  const repoServers = async () => (await api.mcp.servers()).filter((server) => server.name === 'repo-mcp');
  const consentQuestions = () =>
    prompts.questions('modal').filter((q) => /MCP server "repo-mcp"/.test(q.message));

  before(async () => {
    api = await getApi();
    prompts = installPrompts(api);
    await api.mcp.consent.revokeAll();
  });

  after(async () => {
    prompts.restore();
    await api.mcp.consent.revokeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks once, remembers, asks again after the definition changes, and forgets on reset', async () => {
    // The answer is queued before the file changes: a session the chat starts on the change may ask first,
    // and a question with no answer queued is dismissed (and asked again).
    prompts.answerModal('Allow');
    writeConfig(['--stdio']);
    const allowed = await repoServers();
    assert.equal(allowed.length, 1);
    assert.equal(consentQuestions().length, 1);
    assert.match(
      consentQuestions()[0]?.detail ?? '',
      /\.vscode\/mcp\.json defines it: it runs repo-mcp-server --stdio/,
    );
    // Each variable of the user's it would be given, and where.
    assert.match(
      consentQuestions()[0]?.detail ?? '',
      /• your environment variable "HOME" in the program's environment variable "HOME_DIR"/,
    );
    const env =
      'env' in (allowed[0] as object) ? (allowed[0] as { env: { name: string; value: string }[] }).env : [];
    assert.deepEqual(env, [{ name: 'HOME_DIR', value: process.env.HOME ?? '' }], 'filled once allowed');

    assert.equal((await repoServers()).length, 1);
    assert.equal(consentQuestions().length, 1, 'remembered');

    prompts.answerModal('Don’t Allow');
    writeConfig(['--stdio', '--evil']);
    assert.equal((await repoServers()).length, 0);
    assert.equal(consentQuestions().length, 2, 'a changed definition asks again');
    assert.equal((await repoServers()).length, 0);
    assert.equal(consentQuestions().length, 2, `the denial is remembered: ${JSON.stringify(prompts.asked)}`);

    // Queued before the reset: a session the chat starts on it may ask first, and then finds the answer
    // (a question with no answer queued would be dismissed, and asked again), so what is counted is the one
    // question the reset brought back.
    prompts.answerModal('Don’t Allow');
    // The command's answer is how many answers it forgot.
    assert.equal(await vscode.commands.executeCommand('acpAgents.resetMcpConsent'), 2);
    assert.equal((await repoServers()).length, 0);
    assert.equal(consentQuestions().length, 3, `asked again after the reset: ${JSON.stringify(prompts.asked)}`);
  });

  it('asks once about a server of .vscode/mcp.json that VS Code also shows in its own "mcp" settings', async () => {
    await api.mcp.consent.revokeAll();
    prompts.answerModal('Allow');
    writeConfig(['--stdio', '--once']);
    // VS Code reads the folder's mcp.json into its "mcp" settings (a little after the file changes): the
    // same server then appears in two places.
    await eventually('VS Code to show the server in its "mcp" settings', () => {
      const servers = vscode.workspace.getConfiguration('mcp').inspect<Record<string, { args?: string[] }>>('servers');
      const value = servers?.workspaceFolderValue ?? servers?.workspaceValue;
      return value?.['repo-mcp']?.args?.includes('--once') === true;
    });
    const before = consentQuestions().length;
    assert.equal((await repoServers()).length, 1, 'given to agents once');
    assert.deepEqual(
      consentQuestions().slice(before).map((question) => question.detail?.split(' defines it')[0]),
      ['.vscode/mcp.json'],
      'asked once, as the file’s',
    );
  });
});
