import assert from 'node:assert/strict';
import type { ThreadEntryMessage } from '../../src/protocol';
import { message, snapshot, toolCall } from './support/builders';
import { useChatPages } from './support/suite';
import { builtIds, frame, scrollUntil } from './support/transcriptWalk';

const EXCHANGES = 300;
/** The exchange in which the agent ran a long stretch of tool calls without a user message. */
const LONG_EXCHANGE = 150;
const LONG_STRETCH = 100;

/** An entry as a replayed session has it: of no turn. */
function noTurn(entry: ThreadEntryMessage): ThreadEntryMessage {
  const { turnId: _turnId, ...rest } = entry;
  return rest as ThreadEntryMessage;
}

/** A session the agent replayed (session/load): EXCHANGES exchanges, one with a long stretch of tool calls. */
function replayedHistory(): ThreadEntryMessage[] {
  const entries: ThreadEntryMessage[] = [];
  for (let x = 1; x <= EXCHANGES; x++) {
    entries.push(noTurn(message('user', `u${x}`, `Question ${x}`)));
    entries.push(noTurn(message('agent', `a${x}`, `Answer **${x}**.`)));
    const calls = x === LONG_EXCHANGE ? LONG_STRETCH : 1;
    for (let c = 1; c <= calls; c++) {
      entries.push(noTurn(toolCall(`c${x}-${c}`, { title: `Read file ${x}.${c}`, status: 'completed' })));
    }
  }
  return entries;
}

describe('webview: a long replayed history (entries of no turn)', () => {
  const chat = useChatPages();

  it('builds its latest groups at once, the rest as they near view, in order, and evicts far ones', async () => {
    const page = await chat.open();
    const entries = replayedHistory();
    const order = new Map(entries.map((entry, index) => [entry.id, index]));
    await page.host(snapshot({ entries, turns: [] }));
    const first = await builtIds(page.page);
    assert.ok(
      first.length > 0 && first.length < 100,
      `${first.length} of ${entries.length} entries built at once`,
    );
    assert.equal(first.at(-1), `c${EXCHANGES}-1`, 'the latest entry is built');

    const seen = new Set(first);
    await scrollUntil(page.page, -1500, order, seen, (ids) => ids.includes('u1'));
    assert.equal(seen.size, entries.length, 'every entry was built on the way up');
    assert.equal(
      await page.page.locator(`[data-entry-id="a${EXCHANGES}"]`).count(),
      0,
      'the latest exchange, far below now, is evicted',
    );
  });

  it('starts a group at each user message, cuts a long stretch without one into groups that read as one', async () => {
    const page = await chat.open();
    await page.host(snapshot({ entries: replayedHistory(), turns: [] }));
    const log = page.page.locator('.transcript');
    const stretch = page.page.locator(`[data-entry-id="c${LONG_EXCHANGE}-50"]`);
    for (let i = 0; i < 400 && (await stretch.count()) === 0; i++) {
      await log.evaluate((element) => (element.scrollTop = Math.max(0, element.scrollTop - 1500)));
      await frame(page.page);
    }
    await stretch.scrollIntoViewIfNeeded();
    for (let i = 0; i < 5; i++) {
      await frame(page.page);
    }
    const groups = await page.page
      .locator('section.turn-history:not(.turn-deferred)')
      .evaluateAll((sections) =>
        sections.map((section) => ({
          ids: Array.from(section.querySelectorAll('[data-entry-id]')).map((e) =>
            e.getAttribute('data-entry-id'),
          ),
          continued: section.classList.contains('turn-continued'),
          border: getComputedStyle(section).borderTopWidth,
          paddingTop: getComputedStyle(section).paddingTop,
        })),
      );
    const ofStretch = groups.filter((group) => group.ids.some((id) => id?.startsWith(`c${LONG_EXCHANGE}-`)));
    assert.ok(
      ofStretch.length >= 4,
      `the stretch of ${LONG_STRETCH} tool calls is in ${ofStretch.length} groups`,
    );
    for (const group of groups) {
      assert.ok(group.ids.length <= 30, `a group holds ${group.ids.length} entries`);
      const starts = group.ids[0] ?? '';
      if (group.continued) {
        assert.match(starts, /^c/, 'a continued group goes on within an exchange');
        assert.deepEqual([group.border, group.paddingTop], ['0px', '0px'], 'no separator within an exchange');
      } else if (starts !== 'u1') {
        assert.match(starts, /^u/, `a group that is not continued starts at a user message (${starts})`);
        assert.equal(group.border, '1px', 'a separator between exchanges');
      }
    }
  });
});
