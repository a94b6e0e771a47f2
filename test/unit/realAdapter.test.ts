import { strict as assert } from 'node:assert';
import { signInMethodsOf } from '../../src/core/connection/authMethods';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { chooseKind } from '../../src/features/permissions/core/policyPermissions';
import type { AgentMessageEntry, ThreadEntry, ToolCallEntry, Turn } from '../../src/core/thread/threadTypes';
import type { AgentSession } from '../../src/core/session/agentSession';
import { startRealAdapter, type RealAdapter } from './support/realAdapter';
import { text, waitFor } from './support/testAgent';
import { until } from '../support/until';

/*
 * End to end against a real peer: the unmodified @zed-industries/claude-code-acp 0.16.2 adapter
 * (Claude Code inside) over stdio, its model replaced by the scripted Anthropic endpoint in
 * test/fixtures/llm. This adapter writes files through fs/write_text_file and runs commands through
 * terminal/*, so what it does lands in our ports.
 */

const OPTIONS = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

/** Step durations in ms by test, printed at the end when REAL_ADAPTER_TIMINGS is set. */
const timings: Record<string, Record<string, number>> = {};

describe('real peer: @zed-industries/claude-code-acp 0.16.2', function () {
  this.timeout(90_000);
  /** The adapter the running test started; stopped after each test, also when it failed. */
  let live: RealAdapter | undefined;
  let times: Record<string, number> = {};
  let turns = 0;

  beforeEach(function () {
    times = timings[this.currentTest?.title ?? '?'] = {};
    turns = 0;
  });

  afterEach(async () => {
    await live?.stop();
    live = undefined;
  });

  after(() => {
    if (process.env.REAL_ADAPTER_TIMINGS) {
      console.log(JSON.stringify(timings, null, 1));
    }
  });

  /** Starts the adapter (and its scripted model) and opens a session in its project folder. */
  async function open(
    policy = chooseKind('allow_once'),
  ): Promise<{ adapter: RealAdapter; session: AgentSession }> {
    const adapter = (live = await startRealAdapter({ policy }));
    times.start = adapter.startMs;
    const started = Date.now();
    const session = await adapter.client.newSession({ cwd: adapter.project });
    times.sessionNew = Date.now() - started;
    return { adapter, session };
  }

  async function prompt(session: AgentSession, words: string): Promise<Turn> {
    const started = Date.now();
    const turn = await session.prompt([text(words)]);
    times[`turn${++turns}`] = Date.now() - started;
    return turn;
  }

  it('initializes: agent info, auth methods and capabilities as the adapter sends them', async () => {
    const adapter = (live = await startRealAdapter());
    times.start = adapter.startMs;
    const info = adapter.client.info;
    assert.equal(info.agentInfo?.name, '@zed-industries/claude-code-acp');
    assert.equal(info.agentInfo?.version, '0.16.2');
    assert.equal(info.name, 'Claude Code');
    assert.equal(info.protocolVersion, 1);
    assert.ok(info.authMethods.some((method) => method.id === 'claude-login'));
    assert.equal(info.capabilities.loadSession, true);
    assert.deepEqual(info.capabilities.promptCapabilities, { image: true, embeddedContext: true });
  });

  it('offers its login as a terminal sign-in to a client that can run one (the chat’s Sign in)', async () => {
    // Without the `_meta["terminal-auth"]` capability this adapter offers "claude-login" as a method it
    // handles itself, and its authenticate answers "Method not implemented": Sign in would fail.
    const adapter = (live = await startRealAdapter({ terminalAuth: true }));
    const methods = signInMethodsOf(adapter.client.info.authMethods);
    const login = methods.find((method) => method.id === 'claude-login');
    assert.equal(login?.kind, 'terminal', JSON.stringify(methods));
    assert.ok(login?.kind === 'terminal' && login.command === 'node');
    assert.match(login.args.join(' '), /claude-agent-sdk[\\/]cli\.js$/);
  });

  it('opens a session: modes from the response, commands from the update that follows it', async () => {
    const { adapter, session } = await open();
    assert.match(session.id, /^[0-9a-f-]{36}$/);
    const modes = session.thread.snapshot().state.modes;
    assert.equal(modes?.currentModeId, 'default');
    assert.deepEqual(
      modes?.available.map((mode) => mode.id),
      ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'],
    );
    await waitFor(session, () => session.thread.snapshot().state.commands.length > 0, 10_000);
    const commands = session.thread.snapshot().state.commands.map((command) => command.name);
    assert.ok(commands.includes('compact'), commands.join(', '));
    // Nothing was asked of the model yet.
    assert.deepEqual(adapter.stub.messageRequests(), []);
  });

  it('writes a file through our fs/write_text_file port after an allowed permission prompt', async () => {
    const { adapter, session } = await open();
    const target = path.join(adapter.project, 'notes', 'hello.txt');
    const content = 'Hello from the scripted model!\nSecond line.\n';
    adapter.stub.setScript({
      kind: 'write',
      path: target,
      content,
      intro: 'I will write the file.',
      finalText: (result) => `Wrote it. Tool said: ${result}`,
    });
    const turn = await prompt(session, 'Create notes/hello.txt');

    assert.equal(turn.status, 'completed');
    assert.equal(turn.stopReason, 'end_turn');

    // The adapter wrote nothing itself: the write came through our port, and our port wrote the disk.
    assert.deepEqual(adapter.fileSystem.calls, [
      { op: 'write', path: target, content, sessionId: session.id },
    ]);
    assert.equal(readFileSync(target, 'utf8'), content);

    // The permission prompt went through the policy port with the adapter's three options.
    assert.equal(adapter.permissions.prompts.length, 1);
    const asked = adapter.permissions.prompts[0]!;
    assert.deepEqual(asked.options, OPTIONS);
    assert.equal(asked.sessionId, session.id);
    assert.equal(asked.toolCall.title, `Write ${target}`);

    // The transcript: intro text, ONE tool call entry although the adapter sent tool_call twice, final text.
    const entries = session.thread.snapshot().entries;
    assert.deepEqual(
      entries.map((entry) => entry.kind),
      ['user', 'agent', 'tool_call', 'agent'],
    );
    const tool = entries[2] as ToolCallEntry;
    assert.match(tool.toolCallId, /^toolu_stub_\d+$/);
    assert.equal(asked.toolCall.toolCallId, tool.toolCallId);
    assert.equal(countUpdates(adapter, tool.toolCallId, 'tool_call'), 2);
    assert.equal(tool.toolKind, 'edit');
    assert.equal(tool.status, 'completed');
    assert.equal(tool.title, `Write ${target}`);
    assert.deepEqual(tool.content, [{ type: 'diff', path: target, oldText: null, newText: content }]);
    assert.deepEqual(tool.locations, [{ path: target }]);
    assert.deepEqual(tool.permission, {
      key: asked.key,
      options: OPTIONS,
      status: 'selected',
      selectedOptionId: 'allow',
    });
    assert.equal((entries[1] as AgentMessageEntry).text, 'I will write the file.');
    assert.equal(
      (entries[3] as AgentMessageEntry).text,
      `Wrote it. Tool said: The file ${target} has been updated successfully.`,
    );
    assert.ok(entries.every((entry) => entry.turnId === turn.id));

    // The model was asked twice: for the tool call, then with the tool result.
    assert.equal(adapter.stub.messageRequests().length, 2);
    assert.deepEqual(adapter.logger.messages('error'), []);
  });

  it('runs a shell command through our terminal port: create, wait_for_exit, output, release', async () => {
    const { adapter, session } = await open();
    const marker = `shell-ran-${process.pid}-${Date.now()}`;
    const command = `echo ${marker} | tee proof.txt`;
    adapter.stub.setScript({
      kind: 'bash',
      command,
      description: 'Print the marker',
      finalText: (result) => `Output: ${result}`,
    });
    const turn = await prompt(session, 'Print the marker');

    assert.equal(turn.status, 'completed');
    assert.equal(turn.stopReason, 'end_turn');

    // One shell command line, no args and no cwd from the agent: the session's cwd (the project) applies.
    const calls = adapter.terminals.calls;
    assert.deepEqual(
      calls.map((call) => call.op),
      ['create', 'wait_for_exit', 'output', 'release'],
    );
    assert.deepEqual(calls[0], {
      op: 'create',
      terminalId: 'term-1',
      request: {
        sessionId: session.id,
        command,
        env: { CLAUDECODE: '1' },
        outputByteLimit: 32_000,
        cwd: session.cwd,
      },
    });
    assert.deepEqual(calls[1], {
      op: 'wait_for_exit',
      terminalId: 'term-1',
      exit: { exitCode: 0, signal: null },
    });
    assert.deepEqual(calls[2], {
      op: 'output',
      terminalId: 'term-1',
      output: { output: `${marker}\n`, truncated: false, exitStatus: { exitCode: 0, signal: null } },
    });
    // It really ran, through a shell (the pipe), in the project folder.
    assert.equal(readFileSync(path.join(adapter.project, 'proof.txt'), 'utf8'), `${marker}\n`);

    assert.equal(adapter.permissions.prompts.length, 1);
    assert.deepEqual(adapter.permissions.prompts[0]!.options, OPTIONS);
    assert.equal(adapter.permissions.prompts[0]!.toolCall.title, `\`${command}\``);

    const entries = session.thread.snapshot().entries;
    assert.deepEqual(
      entries.map((entry) => entry.kind),
      ['user', 'agent', 'tool_call', 'agent'],
    );
    const tool = entries[2] as ToolCallEntry;
    assert.equal(countUpdates(adapter, tool.toolCallId, 'tool_call'), 2);
    assert.equal(tool.toolKind, 'execute');
    assert.equal(tool.status, 'completed');
    assert.equal(tool.title, 'Print the marker');
    assert.deepEqual(tool.content, [{ type: 'terminal', terminalId: 'term-1' }]);
    // The output went back to the model, which quoted it.
    assert.equal(
      (entries[3] as AgentMessageEntry).text,
      `Output: Exited with code 0.Final output:\n\n${marker}\n`,
    );
    assert.deepEqual(adapter.logger.messages('error'), []);
  });

  it('reads a file through our fs/read_text_file port, without a permission prompt', async () => {
    const { adapter, session } = await open();
    const target = path.join(adapter.project, 'data.txt');
    writeFileSync(target, 'alpha\nbeta\n');
    adapter.stub.setScript({ kind: 'read', path: target, finalText: (result) => `Read: ${result}` });
    const turn = await prompt(session, 'Read data.txt');

    assert.equal(turn.status, 'completed');
    assert.deepEqual(adapter.fileSystem.calls, [{ op: 'read', path: target, sessionId: session.id }]);
    assert.equal(adapter.permissions.prompts.length, 0);
    const entries = session.thread.snapshot().entries;
    const tool = entries.find(isToolCall);
    assert.equal(tool?.toolKind, 'read');
    assert.equal(tool?.status, 'completed');
    assert.equal(tool?.title, `Read ${target}`);
    // (The adapter sends this location with `line: 0`.)
    assert.deepEqual(
      tool?.locations.map((location) => location.path),
      [target],
    );
    // The file's text went back to the model inside the tool result.
    const final = entries.at(-1) as AgentMessageEntry;
    assert.equal(final.kind, 'agent');
    // (Claude Code appends a system reminder to every file it reads.)
    assert.ok(final.text.startsWith('Read: alpha\nbeta\n\n'), final.text);
  });

  it('lists its sessions (session/list): the one just used, in its folder, titled by its first message', async () => {
    const { adapter, session } = await open();
    assert.ok(
      adapter.client.info.capabilities.sessionCapabilities?.list,
      'the adapter advertises session/list',
    );
    adapter.stub.setScript({ kind: 'text', text: 'Noted.' });
    assert.equal((await prompt(session, 'Remember the parser plan')).status, 'completed');
    // Claude Code writes its session file as the turn goes: list until it is there (bounded).
    let listed: Awaited<ReturnType<typeof adapter.client.listSessions>> = { sessions: [] };
    await until(
      async () => {
        listed = await adapter.client.listSessions({ cwd: adapter.project });
        return listed.sessions.some((info) => info.sessionId === session.id);
      },
      'the session in the list',
      15_000,
    );
    const ours = listed.sessions.find((info) => info.sessionId === session.id);
    assert.ok(ours, JSON.stringify(listed));
    assert.equal(ours.cwd, adapter.project);
    assert.match(ours.title ?? '', /Remember the parser plan/);
    assert.ok(!Number.isNaN(Date.parse(ours.updatedAt ?? '')), 'updatedAt is an ISO time');
  });

  it('rejects the write: nothing is written, the tool call fails and the turn still ends', async () => {
    const { adapter, session } = await open(chooseKind('reject_once'));
    const target = path.join(adapter.project, 'rejected.txt');
    adapter.stub.setScript({
      kind: 'write',
      path: target,
      content: 'must not be written\n',
      intro: 'Writing.',
    });
    const turn = await prompt(session, 'Create rejected.txt');

    assert.equal(turn.status, 'completed');
    assert.equal(turn.stopReason, 'end_turn');
    assert.equal(adapter.permissions.prompts.length, 1);
    assert.deepEqual(adapter.permissions.prompts[0]!.options, OPTIONS);
    assert.deepEqual(adapter.fileSystem.calls, []);
    assert.equal(existsSync(target), false);

    const entries = session.thread.snapshot().entries;
    // The refusal interrupts Claude Code: the model is not asked again, so there is no final text.
    assert.deepEqual(
      entries.map((entry) => entry.kind),
      ['user', 'agent', 'tool_call'],
    );
    const tool = entries[2] as ToolCallEntry;
    assert.equal(tool.status, 'failed');
    assert.equal(tool.permission?.status, 'selected');
    assert.equal(tool.permission?.selectedOptionId, 'reject');
    assert.deepEqual(tool.content, [{ type: 'text', text: '```\nUser refused permission to run tool\n```' }]);
    assert.equal(adapter.stub.messageRequests().length, 1);
  });

  it('cancels a slowly streamed answer: the turn ends cancelled, partial text kept, next turn works', async () => {
    const { adapter, session } = await open();
    const stub = adapter.stub;
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    stub.setScript({ kind: 'text', text: long, stream: { chunkChars: 10, delayMs: 30 } });
    const agentText = (): string =>
      session.thread
        .snapshot()
        .entries.filter((entry): entry is AgentMessageEntry => entry.kind === 'agent')
        .map((entry) => entry.text)
        .join('');
    const running = session.prompt([text('Say many words')]);
    const turnStarted = Date.now();
    await waitFor(session, () => agentText().length >= 20, 20_000);
    const cancelledAt = Date.now();
    await session.cancel();
    const turn = await running;
    times.cancelToEnd = Date.now() - cancelledAt;
    times.cancelledTurn = Date.now() - turnStarted;

    assert.equal(turn.status, 'cancelled');
    assert.equal(turn.stopReason, 'cancelled');
    // Ended by the adapter's answer, not by our grace timer (10 s), which would log a warning.
    assert.deepEqual(adapter.logger.messages('warn'), []);
    const partial = agentText();
    assert.ok(partial.length < long.length && long.startsWith(partial), partial);
    // The adapter hung up on the model mid-stream.
    await until(() => stub.requests.some((request) => request.aborted === true), 'the abort', 5000);

    stub.setScript({ kind: 'text', text: 'Back again.' });
    const next = await prompt(session, 'Still there?');
    assert.equal(next.status, 'completed');
    assert.equal(next.stopReason, 'end_turn');
    const last = session.thread.snapshot().entries.at(-1) as AgentMessageEntry;
    assert.equal(last.kind, 'agent');
    assert.equal(last.text, 'Back again.');
    assert.equal(last.turnId, next.id);
  });
});

function isToolCall(entry: ThreadEntry): entry is ToolCallEntry {
  return entry.kind === 'tool_call';
}

/** How many `session/update`s of the given kind the adapter sent for one tool call id. */
function countUpdates(adapter: RealAdapter, toolCallId: string, kind: string): number {
  return adapter
    .wire()
    .filter(
      ({ dir, msg }) =>
        dir === 'in' &&
        msg.method === 'session/update' &&
        msg.params?.update?.sessionUpdate === kind &&
        msg.params.update.toolCallId === toolCallId,
    ).length;
}
