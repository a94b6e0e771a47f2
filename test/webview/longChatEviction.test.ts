import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { ThreadEntryMessage, TurnMessage } from '../../src/protocol';
import { fileChange, message, snapshot, toolCall, turn, turnChanges } from './support/builders';
import type { ChatPage } from './support/chatPage';
import { useChatPages } from './support/suite';
import { frame, walk } from './support/transcriptWalk';

const OUT = resolve(__dirname, '../../test-results');
const TURNS = 300;
const CODE = Array.from({ length: 12 }, (_, i) => `  const value${i} = compute(${i});`).join('\n');

/** TURNS finished turns, each a question, a markdown answer with a code block and an edit with its diff. */
function longChat(): { entries: ThreadEntryMessage[]; turns: TurnMessage[] } {
  const entries: ThreadEntryMessage[] = [];
  const turns: TurnMessage[] = [];
  for (let t = 1; t <= TURNS; t++) {
    const turnId = `t${t}`;
    turns.push(
      turn(turnId, {
        status: 'completed',
        stopReason: 'end_turn',
        endedAt: 1_700_000_000_001,
        checkpointId: `cp${t}`,
        changes: turnChanges([fileChange(`src/step${t}.ts`, { added: 2, removed: 1 })]),
      }),
    );
    entries.push(message('user', `u${t}`, `Question ${t}: why does step ${t} fail?`, { turnId }));
    entries.push(
      message(
        'agent',
        `a${t}`,
        `## Step ${t}\n\nThe failure is in **step ${t}**.\n\n\`\`\`ts\nfunction step${t}() {\n${CODE}\n}\n\`\`\`\n\n- first\n- second`,
        { turnId },
      ),
    );
    entries.push(
      toolCall(`c${t}`, {
        turnId,
        title: `Edit src/step${t}.ts`,
        toolKind: 'edit',
        status: t % 2 === 0 ? 'completed' : 'in_progress',
        content: [
          {
            type: 'diff',
            path: `/w/src/step${t}.ts`,
            oldText: 'one\ntwo\nthree\n',
            newText: `one\n${t}\nthree\n`,
          },
        ],
      }),
    );
  }
  return { entries, turns };
}

/** Scrolls the log to the top until the first turn is built, then lets building settle. */
async function scrollToTop(page: Page): Promise<void> {
  const log = page.locator('.transcript');
  for (let i = 0; i < 400 && (await page.locator('[data-entry-id="u1"]').count()) === 0; i++) {
    await log.evaluate((element) => (element.scrollTop = 0));
    await frame(page);
  }
  for (let i = 0; i < 5; i++) {
    await frame(page);
  }
}

/** A turn's DOM as text, without what differs between two builds of it: generated ids, the placeholder's sizes. */
function turnHtml(page: Page, turnId: string): Promise<string> {
  return page
    .locator(`section[data-turn-id="${turnId}"]`)
    .evaluate((section) =>
      section.outerHTML.replace(/disclosure-\d+/g, 'disclosure-N').replace(/ style="[^"]*"/g, ''),
    );
}

async function openLongChat(open: () => Promise<ChatPage>): Promise<ChatPage> {
  const page = await open();
  const { entries, turns } = longChat();
  await page.host(snapshot({ entries, turns }));
  return page;
}

describe('webview: a long chat evicts turns far from view', function () {
  // Each test scrolls 300 turns frame by frame.
  this.timeout(180_000);
  const chat = useChatPages();

  it('evicts far turns to placeholders of their height (not a pixel moves) and rebuilds them as they were', async () => {
    const { page } = await openLongChat(chat.open);
    await scrollToTop(page);
    const original = await Promise.all(['t1', 't2', 't3'].map((id) => turnHtml(page, id)));
    const text = await page.locator('section[data-turn-id="t2"]').innerText();
    // t1's edit is running (its card open, the diff built); t2's is done (folded).
    assert.match(original[0] ?? '', /class="diff"/, 'the turn has its diff');
    assert.match(original[0] ?? '', /<pre/, 'and its code block');
    assert.match(original[0] ?? '', /entry-user/, 'and its message (its actions are made on hover or focus)');
    assert.match(original[0] ?? '', /turn-changes/, 'and its change card');

    // Down to the bottom without the browser's scroll anchoring, which would hide a wrong height.
    await page.locator('.transcript').evaluate((log) => (log.style.overflowAnchor = 'none'));
    const down = await walk(page, 700, (top, max) => top >= max - 1);
    assert.ok(down.steps > 50, `a long walk (${down.steps} steps)`);
    assert.ok(down.maxBuilt < 60, `at most ${down.maxBuilt} of ${TURNS} turns built at once`);
    const first = page.locator('section[data-turn-id="t1"]');
    assert.equal(await first.evaluate((section) => section.classList.contains('turn-deferred')), true);
    assert.equal(await first.getAttribute('aria-hidden'), 'true', 'a placeholder is not content');
    assert.equal(await page.locator('[data-entry-id="a1"]').count(), 0, 'its DOM is gone');
    assert.equal(await page.locator('.jump-latest').isHidden(), true, 'following the bottom again');
    await mkdir(OUT, { recursive: true });
    await page.screenshot({ path: `${OUT}/long-chat-bottom.png` });

    // Back up with anchoring as users have it: turns rebuilt above the view move nothing either.
    await page.locator('.transcript').evaluate((log) => (log.style.overflowAnchor = ''));
    const up = await walk(page, -700, (top) => top === 0);
    assert.ok(up.maxBuilt < 60, `at most ${up.maxBuilt} turns built at once`);
    // Every turn was built and measured on the way down: rebuilt, each takes its height again.
    assert.deepEqual([...up.heights], [...down.heights].slice(-1), 'the scroll height never changed');
    await scrollToTop(page);
    assert.deepEqual(
      await Promise.all(['t1', 't2', 't3'].map((id) => turnHtml(page, id))),
      original,
      'rebuilt turns are the originals',
    );
    assert.equal(await page.locator('section[data-turn-id="t2"]').innerText(), text);
    await page.screenshot({ path: `${OUT}/long-chat-top.png` });
    // The middle, reached by a jump: what is built there shows, what is not is out of view.
    await page.locator('.transcript').evaluate((log) => (log.scrollTop = log.scrollHeight / 2));
    for (let i = 0; i < 5; i++) {
      await frame(page);
    }
    await page.screenshot({ path: `${OUT}/long-chat-middle.png` });
    assert.equal(
      await page
        .locator(`section[data-turn-id="t${TURNS - 10}"]`)
        .evaluate((section) => section.classList.contains('turn-deferred')),
      true,
      'the turns near the bottom are evicted now',
    );
  });

  it('never evicts a turn holding focus, a selection, a pending permission or a disclosure the user toggled', async () => {
    const chatPage = await chat.open();
    const { entries, turns } = longChat();
    const pending = entries.map((entry) =>
      entry.id === 'c280'
        ? {
            ...entry,
            status: 'pending' as const,
            permission: {
              key: 'p1',
              status: 'pending' as const,
              options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' as const }],
            },
          }
        : entry,
    );
    await chatPage.host(snapshot({ entries: pending, turns }));
    const { page } = chatPage;
    const log = page.locator('.transcript');
    /** Scrolls by `step` until entry `id` is built, then brings it into view. */
    const reach = async (id: string, step: number) => {
      const entry = page.locator(`[data-entry-id="${id}"]`);
      for (let i = 0; i < 100 && (await entry.count()) === 0; i++) {
        await log.evaluate((element, step) => (element.scrollTop += step), step);
        await frame(page);
      }
      await entry.scrollIntoViewIfNeeded();
      return entry;
    };
    await (await reach('c275', -600)).locator('.disclosure-header').click();
    await (await reach('a285', 600)).locator('.markdown').evaluate((body) => {
      const range = document.createRange();
      range.selectNodeContents(body);
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
    });
    await (await reach('c290', 600)).locator('.disclosure-header').focus();

    await scrollToTop(page);
    const built = (turnId: string) =>
      page
        .locator(`section[data-turn-id="${turnId}"]`)
        .evaluate((section) => !section.classList.contains('turn-deferred'));
    assert.equal(await built('t270'), false, 'a far turn holding nothing is evicted');
    for (const turnId of ['t275', 't280', 't285', 't290', `t${TURNS}`]) {
      assert.equal(await built(turnId), true, `${turnId} kept`);
    }
    assert.equal(
      await page.evaluate(() =>
        document.activeElement?.closest('[data-entry-id]')?.getAttribute('data-entry-id'),
      ),
      'c290',
      'focus stays where it was',
    );
    assert.match(
      await page.evaluate(() => document.getSelection()?.toString() ?? ''),
      /The failure is in step 285/,
    );
    assert.equal(await page.locator('[data-entry-id="c280"] .permission-buttons').count(), 1);

    // Once focus and the selection move on, those turns go too.
    await log.focus();
    await page.evaluate(() => document.getSelection()?.removeAllRanges());
    await log.evaluate((element) => (element.scrollTop += 1));
    await frame(page);
    assert.equal(await built('t285'), false, 'evicted once nothing holds it');
    assert.equal(await built('t290'), false);
    assert.equal(await built('t280'), true, 'the pending permission still holds its turn');
  });
});
