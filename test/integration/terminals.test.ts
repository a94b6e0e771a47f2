/**
 * Issue 4: the agent's `terminal/*` requests run the command as a child process in the workspace and
 * mirror it into a VS Code terminal named "Agent: …" that the user can watch.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import { ask, eventually, freshChat, getApi, toolCallsOf, workspaceRoot } from './support/harness';

describe('terminals: agent commands in VS Code terminals (issue 4)', () => {
  let api: AcpAgentsApi;

  before(async () => {
    api = await getApi();
  });

  beforeEach(async () => {
    await freshChat(api);
  });

  it('runs a command, reports its exit code and output, and shows it in an "Agent: …" terminal', async () => {
    const { turn, reply } = await ask(api, 'terminal echo hi; exit 3');

    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'exit 3\nhi\n');
    const [call] = toolCallsOf(api, turn.id);
    assert.ok(call, 'the command is shown as a tool call');
    assert.equal(call.title, 'Run echo hi; exit 3');
    assert.equal(call.toolKind, 'execute');
    assert.equal(call.status, 'completed');
    assert.equal(call.content.length, 1);
    assert.equal(call.content[0]?.type, 'terminal');

    const terminal = await eventually('the "Agent: sh -c echo hi; exit 3" terminal', () =>
      vscode.window.terminals.find((t) => t.name === 'Agent: sh -c echo hi; exit 3'),
    );
    assert.ok(terminal);
  });

  it('runs commands in the workspace folder', async () => {
    const { reply } = await ask(api, 'terminal pwd');
    assert.equal(reply, `exit 0\n${workspaceRoot()}\n`);
  });

  it('kills a running command when the agent asks (terminal-kill)', async () => {
    const { turn, reply } = await ask(api, 'terminal-kill sleep 30');

    assert.equal(turn.status, 'completed');
    assert.equal(reply, 'killed exit=null signal=SIGTERM');
    assert.ok(
      vscode.window.terminals.some((t) => t.name === 'Agent: sh -c sleep 30'),
      `no "Agent: sh -c sleep 30" terminal among ${JSON.stringify(vscode.window.terminals.map((t) => t.name))}`,
    );
  });
});
