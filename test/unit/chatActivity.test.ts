import { strict as assert } from 'node:assert';
import type { ChatActivityState } from '../../src/protocol';
import { ChatHarness, testAgent, until } from './support/chatHarness';

describe('chat status: running, waiting for you, finished unread, failed', function () {
  this.timeout(30_000);
  let harness: ChatHarness;
  /** The chats the user has on screen. */
  const onScreen = new Set<string>();
  beforeEach(async () => {
    onScreen.clear();
    harness = new ChatHarness({ agents: [testAgent('a')], chatOnScreen: (chatId) => onScreen.has(chatId) });
    await harness.ready();
  });
  afterEach(() => harness.dispose());

  const chatId = (): string => harness.controller.windowChatId;
  const state = (): ChatActivityState | undefined => harness.controller.activity.state(chatId());
  /** The chat's line in the last chat list the view got. */
  const listed = () =>
    harness.view
      .of('chats')
      .at(-1)
      ?.chats.find((chat) => chat.chatId === chatId());

  it('is running while a turn runs, and nothing once it ends on screen', async () => {
    onScreen.add(chatId());
    const sending = harness.send('stream 3 delay 200');
    await until(() => state() === 'running');
    assert.equal(listed()?.activity, 'running');
    await sending;
    assert.equal(state(), undefined, 'seen as it ended: nothing unread');
    assert.equal(listed()?.activity, undefined);
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
    assert.deepEqual(changes, ['running', 'unread', undefined]);
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
    await harness.send('stream 50');
    assert.equal(changes, 2, 'running, then idle: nothing per chunk');
  });
});
