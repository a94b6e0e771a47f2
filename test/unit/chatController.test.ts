import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFileSystem } from '../../src/core/node/nodeFileSystem';
import { NodeTerminals } from '../../src/core/node/nodeTerminals';
import { PolicyPermissions } from '../../src/core/node/policyPermissions';
import type { HostMessage, ThreadEventMessage } from '../../src/protocol';
import { HostMessageSchema } from '../../src/protocol';
import type { AgentDefinition } from '../../src/vscode/agentSettings';
import { ChatController } from '../../src/vscode/chat/chatController';
import { RecordingLogger, TEST_AGENT_JS } from './support/testAgent';

function testAgent(id: string, env: Record<string, string> = {}): AgentDefinition {
  return { id, label: `Test ${id}`, command: process.execPath, args: [TEST_AGENT_JS], env };
}

/** A webview stand-in: records what the controller posts, checking each message against the schema. */
class RecordingView {
  readonly messages: HostMessage[] = [];
  post(message: HostMessage): void {
    HostMessageSchema.parse(message);
    this.messages.push(message);
  }
  of<T extends HostMessage['type']>(type: T): Extract<HostMessage, { type: T }>[] {
    return this.messages.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type);
  }
  events(): ThreadEventMessage[] {
    return this.of('thread_events').flatMap((m) => m.events);
  }
  async until(predicate: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline) {
        throw new Error(`condition not reached; last messages: ${JSON.stringify(this.messages.slice(-3))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

describe('chat controller (host side of the chat view)', () => {
  let dir: string;
  let controller: ChatController;
  let view: RecordingView;
  let logger: RecordingLogger;
  let terminals: NodeTerminals;
  let agents: AgentDefinition[];

  function start(list: AgentDefinition[]): void {
    agents = list;
    controller = new ChatController({
      agents: () => ({ agents, errors: [] }),
      cwd: () => dir,
      ports: {
        fileSystem: new NodeFileSystem(),
        permissions: new PolicyPermissions(() => undefined),
        terminals,
        logger,
      },
      editor: { openFile: async () => {}, openUrl: async () => {} },
    });
    view = new RecordingView();
    controller.attachView(view);
  }

  async function ready(): Promise<void> {
    await controller.handleMessage({ type: 'ready' });
    await view.until(
      () => controller.currentStatus.state === 'ready' || controller.currentStatus.state === 'error',
    );
  }

  function threadText(): string {
    const snapshot = controller.viewState().chat?.thread;
    return (snapshot?.entries ?? [])
      .map((e) => ('text' in e ? `${e.kind}:${e.text}` : `${e.kind}:${e.title}`))
      .join('|');
  }

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-chat-'));
    logger = new RecordingLogger();
    terminals = new NodeTerminals(dir);
  });
  afterEach(async () => {
    controller.dispose();
    await terminals.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('posts nothing before ready, then a full snapshot, then the agent status', async () => {
    start([testAgent('a')]);
    assert.equal(view.messages.length, 0);
    await ready();
    const first = view.messages.at(0);
    assert.ok(first?.type === 'snapshot');
    assert.deepEqual(first.view.agents, [{ id: 'a', label: 'Test a' }]);
    assert.equal(first.view.selectedAgentId, 'a');
    assert.deepEqual(
      view.of('agent_status').map((m) => m.status),
      [
        { state: 'starting', agentName: 'Test a' },
        { state: 'ready', agentName: 'Demo agent (offline)' },
      ],
    );
  });

  it('streams a prompt into the view as coalesced thread events', async () => {
    start([testAgent('a')]);
    await ready();
    await controller.handleMessage({ type: 'send', text: 'stream 2000' });
    await view.until(() => view.events().some((e) => e.type === 'turn_ended'));
    const expected = Array.from({ length: 2000 }, (_, i) => `chunk ${i + 1} `).join('');
    assert.equal(threadText(), `user:stream 2000|agent:${expected}`);
    // The view rebuilt from the posted events holds the same text as the host's thread.
    const added = view.events().find((e) => e.type === 'entry_added' && e.entry.kind === 'agent');
    assert.ok(added?.type === 'entry_added' && 'text' in added.entry);
    const appended = view
      .events()
      .flatMap((e) => (e.type === 'text_appended' && e.entryId === added.entry.id ? [e.text] : []))
      .join('');
    assert.equal(added.entry.text + appended, expected);
    // 2000 chunks did not become 2000 postMessages.
    assert.ok(view.of('thread_events').length < 200, `${view.of('thread_events').length} posts`);
  });

  it('answers an invalid view message with an error and keeps working', async () => {
    start([testAgent('a')]);
    await ready();
    await controller.handleMessage({ type: 'send' });
    await controller.handleMessage({ type: 'launch_missiles' });
    assert.deepEqual(
      view.of('error').map((m) => m.message),
      [
        'The chat view sent an invalid message (text: Invalid input: expected string, received undefined).',
        "The chat view sent an invalid message (type: Invalid discriminator value. Expected 'ready' | 'send' | 'cancel' | 'answer_permission' | 'select_agent' | 'set_mode' | 'set_config_option' | 'open_file' | 'open_url' | 'authenticate' | 'restart_agent' | 'new_chat').",
      ],
    );
    assert.equal(logger.messages('warn').length, 2);
    await controller.handleMessage({ type: 'send', text: 'stream 1' });
    await view.until(() => view.events().some((e) => e.type === 'turn_ended'));
    assert.equal(threadText(), 'user:stream 1|agent:chunk 1 ');
  });

  it('resolves a permission answered in the view', async () => {
    start([testAgent('a')]);
    await ready();
    const sending = controller.handleMessage({ type: 'send', text: 'tool' });
    await view.until(() =>
      view
        .events()
        .some(
          (e) =>
            e.type === 'entry_updated' &&
            e.entry.kind === 'tool_call' &&
            e.entry.permission?.status === 'pending',
        ),
    );
    await controller.handleMessage({ type: 'answer_permission', key: 'perm-1', optionId: 'allow-always' });
    await sending;
    assert.equal(threadText(), 'user:tool|tool_call:Edit README.md|agent:Edit applied.');
  });

  it('cancels a running turn from the view', async () => {
    start([testAgent('a')]);
    await ready();
    const sending = controller.handleMessage({ type: 'send', text: 'hang' });
    await view.until(() => view.events().some((e) => e.type === 'entry_added' && e.entry.kind === 'agent'));
    await controller.handleMessage({ type: 'cancel' });
    await sending;
    const ended = view.events().find((e) => e.type === 'turn_ended');
    assert.ok(ended?.type === 'turn_ended');
    assert.equal(ended.turn.status, 'cancelled');
  });

  it('shows auth required with the sign-in methods, and sends the waiting prompt after sign-in', async () => {
    start([testAgent('a', { TEST_AGENT_REQUIRE_AUTH: '1' })]);
    await ready();
    assert.deepEqual(controller.currentStatus, {
      state: 'error',
      agentName: 'Demo agent (offline)',
      error: { kind: 'auth_required', message: 'Authentication required' },
      authMethods: [{ id: 'test-login', name: 'Test login', description: 'Signs in to the test agent' }],
    });
    await controller.handleMessage({ type: 'send', text: 'stream 2' });
    assert.equal(threadText(), '');
    await controller.handleMessage({ type: 'authenticate', methodId: 'test-login' });
    assert.equal(controller.currentStatus.state, 'ready');
    assert.equal(threadText(), 'user:stream 2|agent:chunk 1 chunk 2 ');
  });

  it('keeps the transcript when the agent crashes and continues after a restart', async () => {
    start([testAgent('a')]);
    await ready();
    await controller.handleMessage({ type: 'send', text: 'crash' });
    await view.until(() => controller.currentStatus.state === 'error');
    assert.equal(controller.currentStatus.error?.kind, 'process_exited');
    assert.ok(controller.currentStatus.error?.stderrTail?.includes('acp-test-agent: crashing on purpose'));
    assert.equal(threadText(), 'user:crash|agent:partial 1 partial 2 ');

    await controller.handleMessage({ type: 'restart_agent' });
    assert.equal(controller.currentStatus.state, 'ready');
    await controller.handleMessage({ type: 'send', text: 'stream 1' });
    assert.equal(threadText(), 'user:crash|agent:partial 1 partial 2 |user:stream 1|agent:chunk 1 ');
    const turns = controller.viewState().chat?.thread.turns.map((t) => t.status);
    assert.deepEqual(turns, ['interrupted', 'completed']);
  });

  it('reports an agent that cannot start', async () => {
    start([{ id: 'broken', label: 'Broken', command: 'no-such-acp-agent', args: [], env: {} }]);
    await ready();
    assert.equal(controller.currentStatus.state, 'error');
    assert.equal(controller.currentStatus.error?.kind, 'process_exited');
    assert.match(controller.currentStatus.error?.message ?? '', /failed to start: ENOENT/);
  });

  it('switches agents with a fresh transcript and starts a new chat on request', async () => {
    start([testAgent('a'), testAgent('b')]);
    await ready();
    await controller.handleMessage({ type: 'send', text: 'stream 1' });
    const firstChat = controller.viewState().chat?.chatId;
    await controller.handleMessage({ type: 'select_agent', agentId: 'b' });
    assert.equal(controller.viewState().selectedAgentId, 'b');
    assert.notEqual(controller.viewState().chat?.chatId, firstChat);
    assert.equal(threadText(), '');
    assert.equal(controller.currentStatus.state, 'ready');

    await controller.handleMessage({ type: 'send', text: 'stream 1' });
    assert.equal(threadText(), 'user:stream 1|agent:chunk 1 ');
    await controller.handleMessage({ type: 'new_chat' });
    assert.equal(threadText(), '');
    assert.equal(view.of('snapshot').at(-1)?.view.chat?.thread.entries.length, 0);
    await controller.handleMessage({ type: 'select_agent', agentId: 'nope' });
    assert.match(view.of('error').at(-1)?.message ?? '', /Unknown agent nope/);
  });

  it('sends a fresh snapshot with the transcript so far when a view reconnects', async () => {
    start([testAgent('a')]);
    await ready();
    await controller.handleMessage({ type: 'send', text: 'stream 3' });
    const second = new RecordingView();
    controller.attachView(second);
    await controller.handleMessage({ type: 'ready' });
    const snapshot = second.messages[0];
    assert.ok(snapshot?.type === 'snapshot');
    assert.deepEqual(
      snapshot.view.chat?.thread.entries.map((e) => ('text' in e ? e.text : '')),
      ['stream 3', 'chunk 1 chunk 2 chunk 3 '],
    );
  });
});
