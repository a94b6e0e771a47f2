import { strict as assert } from 'node:assert';
import { RUNNING_SHOWN_AFTER_MS } from '../../src/chat/chatActivity';
import type { ChatActivityState } from '../../src/protocol';
import { ManualClock } from '../support/manualClock';
import { ChatHarness, testAgent, until } from './support/chatHarness';

describe('chat status: running, waiting for you, finished unread, failed', function () {
  this.timeout(30_000);
  let harness: ChatHarness;
  /** When a run has lasted long enough to show as running: moved by hand. */
  let clock: ManualClock;
  /** The chats the user has on screen. */
  const onScreen = new Set<string>();
  beforeEach(async () => {
    onScreen.clear();
    clock = new ManualClock();
    harness = new ChatHarness({
      agents: [testAgent('a')],
      chatOnScreen: (chatId) => onScreen.has(chatId),
      clock,
    });
    await harness.ready();
  });
  afterEach(() => harness.dispose());

  const chatId = (): string => harness.controller.windowChatId;
  const state = (): ChatActivityState | undefined => harness.controller.activity.state(chatId());
  /** The chat's line in the last chat list the view got. */
  const listed = () =>
    harness.view
      .chatLists()
      .at(-1)
      ?.find((chat) => chat.chatId === chatId());

  /** Whether the chat runs (a prompt on its way or a turn running), whatever its status shows. */
  const chatRuns = (): boolean => harness.controller.activeChatRunning;

  it('is running once a turn has run a moment, and nothing once it ends on screen', async () => {
    onScreen.add(chatId());
    const sending = harness.send('hang');
    await until(chatRuns);
    clock.advance(RUNNING_SHOWN_AFTER_MS - 1);
    assert.equal(state(), undefined, 'not yet shown as running');
    clock.advance(1);
    assert.equal(state(), 'running');
    assert.equal(listed()?.activity, 'running');
    await harness.controller.handleMessage({ type: 'cancel' });
    await sending;
    assert.equal(state(), undefined, 'seen as it ended: nothing unread');
    assert.equal(listed()?.activity, undefined);
  });

  it('a short turn never shows as running: no status change, no chat list for it, no timer left', async () => {
    onScreen.add(chatId());
    const changes: (ChatActivityState | undefined)[] = [];
    harness.controller.activity.onDidChange((change) => changes.push(change.state));
    const timersBefore = clock.pending;
    await harness.send('hello');
    assert.equal(clock.pending, timersBefore, 'the timer that would have shown it running is gone');
    clock.advance(RUNNING_SHOWN_AFTER_MS);
    assert.deepEqual(changes, []);
    assert.equal(
      harness.view.chatLists().filter((list) => list.some((chat) => chat.activity === 'running')).length,
      0,
    );
  });

  it('a chat that waited for you and runs on shows as running at once', async () => {
    onScreen.add(chatId());
    const sending = harness.send('tool');
    await until(() => state() === 'waiting');
    const key = harness.permissions.prompts[0]?.key;
    assert.ok(key);
    const changes: (ChatActivityState | undefined)[] = [];
    harness.controller.activity.onDidChange((change) => changes.push(change.state));
    await harness.controller.handleMessage({ type: 'answer_permission', key, optionId: 'allow-once' });
    await sending;
    assert.deepEqual(changes.slice(0, 1), ['running'], 'running again as the answer goes out, with no wait');
  });

  it('waits for you while a permission is asked, with what for, until it is answered', async () => {
    onScreen.add(chatId());
    const sending = harness.send('tool');
    await until(() => state() === 'waiting');
    assert.equal(listed()?.waitingFor, 'permission: Edit README.md');
    assert.deepEqual(harness.controller.activity.counts(), { running: 0, waiting: 1, unread: 0, failed: 0 });
    const key = harness.permissions.prompts[0]?.key;
    assert.ok(key);
    await harness.controller.handleMessage({ type: 'answer_permission', key, optionId: 'allow-once' });
    await sending;
    assert.equal(state(), undefined);
  });

  it('is unread when a turn ends off screen, until the chat is seen', async () => {
    const changes: (ChatActivityState | undefined)[] = [];
    harness.controller.activity.onDidChange((change) => changes.push(change.state));
    await harness.send('hello');
    assert.equal(state(), 'unread');
    assert.equal(listed()?.activity, 'unread');
    harness.controller.screenChanged();
    assert.equal(state(), 'unread', 'still off screen');
    onScreen.add(chatId());
    harness.controller.screenChanged();
    assert.equal(state(), undefined);
    assert.deepEqual(
      changes,
      ['unread', undefined],
      'a turn shorter than a moment is never shown as running',
    );
  });

  it('is failed when a turn fails off screen', async () => {
    await harness.send('error -32603 Upstream failed').catch(() => undefined);
    await until(() => state() === 'failed');
    onScreen.add(chatId());
    harness.controller.screenChanged();
    assert.equal(state(), undefined);
  });

  it('streaming text changes no status (no work per chunk)', async () => {
    onScreen.add(chatId());
    let changes = 0;
    harness.controller.activity.onDidChange(() => changes++);
    const sending = harness.send('stream 50 delay 5');
    await until(chatRuns);
    clock.advance(RUNNING_SHOWN_AFTER_MS);
    await sending;
    assert.equal(changes, 2, 'running, then idle: nothing per chunk');
  });
});
