/**
 * Issue 4: the agent's `terminal/*` requests run the command as a child process in the workspace and
 * mirror it into a VS Code terminal named "Agent: …" that the user can watch.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ask, begin, eventually, freshChat, getApi, toolCallsOf, workspaceRoot } from './support/harness';

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
  it('opens the first 4 of 6 running commands as VS Code terminals, and another on demand ("Open in terminal")', async () => {
    const marker = `m${process.pid}${Date.now().toString(36)}`;
    const stop = path.join(workspaceRoot(), `.it-stop-${marker}`);
    const command = `: ${marker}; until [ -e .it-stop-${marker} ]; do sleep 0.05; done`;
    const ours = () => vscode.window.terminals.filter((t) => t.name.includes(marker));
    try {
      const running = await begin(api, `terminals 6 ${command}`);
      const calls = await eventually('six commands running', () => {
        const found = toolCallsOf(api, running.turnId);
        return found.length === 6 && found;
      });
      await eventually('four "Agent: …" terminals', () => ours().length === 4);
      const sixth = calls.find((call) => call.title.endsWith('(#6)'));
      const content = sixth?.content[0];
      assert.equal(content?.type, 'terminal');
      const terminalId = content.type === 'terminal' ? content.terminalId : '';
      // The chat's "Open in terminal" opens it now, and shows it.
      await api.chat.handleMessage({ type: 'open_terminal', terminalId });
      await eventually('a fifth "Agent: …" terminal', () => ours().length === 5);
      const opened = api.terminals.terminalFor(terminalId);
      assert.ok(opened && ours().includes(opened));
      await eventually('the opened terminal to be active', () => vscode.window.activeTerminal === opened);
      writeFileSync(stop, '');
      const { reply } = await running.done;
      assert.equal(reply, '6 of 6 exited with code 0');
    } finally {
      rmSync(stop, { force: true });
    }
  });
});
