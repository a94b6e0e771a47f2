import { strict as assert } from 'node:assert';
import { chatListChange, type HeldChatList } from '../../src/chat/chatListChange';
import { withChatAt, type ChatSummary } from '../../src/protocol';

/** A small seeded generator, so that a failing case can be run again. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % below;
  };
}

/** `chats` as a view showing chat `activeChatId` holds them. */
const heldChatList = (chats: readonly ChatSummary[], activeChatId: string): HeldChatList => ({
  activeChatId,
  chats,
});

const summary = (chatId: string, updatedAt: number): ChatSummary => ({
  chatId,
  title: `Chat ${chatId}`,
  agentId: 'a',
  agentLabel: 'A',
  updatedAt,
  running: false,
});

/**
 * The change a view is sent brings its list to the host's exactly, whatever the lists: one chat's change only
 * when applying it (`withChatAt`, as the page does) gives the new list, and always for one chat moved or changed.
 */
describe('the chat list: what a view needs to hold the host’s', () => {
  it('one chat moved, changed or both: that chat and its place; the page then holds the new list exactly', () => {
    const next = random(7);
    for (let round = 0; round < 3000; round++) {
      const length = 1 + next(12);
      const before = Array.from({ length }, (_, index) => summary(`c${index}`, length - index));
      const from = next(length);
      const to = next(length);
      const moved =
        next(2) === 0 ? before[from]! : { ...before[from]!, running: true, updatedAt: 100 + round };
      const after = withChatAt(before, moved, to);
      const change = chatListChange(heldChatList(before, 'c0'), heldChatList(after, 'c0'));
      if (from === to && moved === before[from]) {
        assert.equal(change, 'same', `round ${round}`);
        continue;
      }
      assert.ok(typeof change === 'object', `round ${round}: ${from} → ${to} sent the whole list`);
      assert.deepEqual(withChatAt(before, after[change.index]!, change.index), after, `round ${round}`);
    }
  });

  it('any other change: the whole list, or a change that gives the new list exactly', () => {
    const next = random(11);
    let whole = 0;
    for (let round = 0; round < 3000; round++) {
      const length = next(10);
      const before = Array.from({ length }, (_, index) => summary(`c${index}`, length - index));
      const after = before.map((chat) => (next(4) === 0 ? { ...chat, title: `T${round}` } : chat));
      if (next(3) === 0 && after.length > 0) {
        after.splice(next(after.length), 1); // a chat deleted
      }
      if (next(3) === 0) {
        after.splice(next(after.length + 1), 0, summary(`new${round}`, 1000)); // a chat created
      }
      for (let swaps = next(3); swaps > 0 && after.length > 1; swaps--) {
        const a = next(after.length);
        const b = next(after.length);
        [after[a], after[b]] = [after[b]!, after[a]!];
      }
      const change = chatListChange(heldChatList(before, 'c0'), heldChatList(after, 'c0'));
      if (change === 'whole') {
        whole++;
      } else if (change === 'same') {
        assert.deepEqual(after, before, `round ${round}`);
      } else {
        assert.deepEqual(withChatAt(before, after[change.index]!, change.index), after, `round ${round}`);
      }
    }
    assert.ok(whole > 1000, `${whole} of 3000 needed the whole list`);
  });

  it('the whole list when the view held none, or shows another chat', () => {
    const list = heldChatList([summary('c1', 1)], 'c1');
    assert.equal(chatListChange(undefined, list), 'whole');
    assert.equal(chatListChange(heldChatList([summary('c1', 1)], 'c2'), list), 'whole');
    assert.equal(chatListChange(heldChatList([], 'c1'), heldChatList([], 'c1')), 'same');
  });
});
