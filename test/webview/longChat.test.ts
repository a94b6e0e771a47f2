import assert from 'node:assert/strict';
import type { ThreadEntryMessage, TurnMessage } from '../../src/protocol';
import { appended, events, message, snapshot, toolCall, turn, updated } from './support/builders';
import { useChatPages } from './support/suite';

const TURNS = 300;

/** A finished chat of TURNS turns: a question, an answer and a tool call each. */
function longChat(): { entries: ThreadEntryMessage[]; turns: TurnMessage[] } {
  const entries: ThreadEntryMessage[] = [];
  const turns: TurnMessage[] = [];
  for (let t = 1; t <= TURNS; t++) {
    const turnId = `t${t}`;
    turns.push(turn(turnId, { status: 'completed', stopReason: 'end_turn', endedAt: 1_700_000_000_001 }));
    entries.push(message('user', `u${t}`, `Question ${t}`, { turnId }));
    entries.push(message('agent', `a${t}`, `Answer **${t}**.`, { turnId }));
    entries.push(toolCall(`c${t}`, { turnId, title: `Read file ${t}`, status: 'completed' }));
  }
  return { entries, turns };
}

describe('webview: a long chat', () => {
  const chat = useChatPages();

  it('builds the latest turns at once and older turns as they scroll into view, with their latest content', async () => {
    const page = await chat.open();
    const { entries, turns } = longChat();
    await page.host(snapshot({ entries, turns }));
    const built = page.page.locator('[data-entry-id]');
    const first = await built.count();
    assert.ok(first > 0 && first < entries.length / 2, `${first} of ${entries.length} entries built at once`);
    assert.match(await page.page.locator('[data-entry-id="a300"]').innerText(), /Answer 300\./);
    assert.equal(await page.page.locator('[data-entry-id="a1"]').count(), 0);

    // Changes to a turn that is not built yet are not lost: it is built from the latest copy.
    await page.host(
      events(appended('a1', ' And more.'), updated(toolCall('c1', { turnId: 't1', title: 'Renamed' }))),
    );

    const log = page.page.locator('.transcript');
    for (let i = 0; i < 200 && (await page.page.locator('[data-entry-id="a1"]').count()) === 0; i++) {
      await log.evaluate((element) => (element.scrollTop = 0));
      await page.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(undefined))));
    }
    assert.match(
      (await page.page.locator('[data-entry-id="a1"]').textContent()) ?? '',
      /Answer 1\. And more\./,
    );
    assert.match((await page.page.locator('[data-entry-id="c1"]').textContent()) ?? '', /Renamed/);
    // Every turn keeps its order, whichever was built first.
    const order = await page.page
      .locator('[data-turn-id]')
      .evaluateAll((sections) => sections.map((section) => section.getAttribute('data-turn-id')));
    assert.deepEqual(
      order,
      turns.map((t) => t.id),
    );
  });
});
