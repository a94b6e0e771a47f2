import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { message, snapshot, turn } from './support/builders';
import { useChatPages } from './support/suite';

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly tid: number;
  readonly args?: { data?: { type?: string } };
}

/**
 * The style and layout work Chromium did inside the page's keydown handlers while `press` ran, from a
 * trace: each is a layout the handler forced by reading a size or a scroll position.
 */
async function layoutsInKeydown(page: Page, press: () => Promise<void>): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const finished = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline', transferMode: 'ReportEvents' });
  await press();
  await cdp.send('Tracing.end');
  await finished;
  await cdp.detach();
  const end = (event: TraceEvent): number => event.ts + (event.dur ?? 0);
  const keydowns = events.filter(
    (event) => event.ph === 'X' && event.name === 'EventDispatch' && event.args?.data?.type === 'keydown',
  );
  assert.ok(keydowns.length > 0, 'the trace holds the keydown');
  return events
    .filter((event) => event.ph === 'X' && ['Layout', 'UpdateLayoutTree'].includes(event.name))
    .filter((event) =>
      keydowns.some((key) => key.tid === event.tid && event.ts >= key.ts && end(event) <= end(key)),
    )
    .map((event) => event.name);
}

const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i}, a sentence or two of an answer.`);

describe('webview: Send', () => {
  const chat = useChatPages();

  it('posts the message and lays nothing out in its keydown; the next frame shows it at the bottom', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('user', 'u1', 'Explain'), message('agent', 'a1', paragraphs.join('\n\n'))],
        turns: [turn('t1', { status: 'completed' })],
      }),
      { height: 500 },
    );
    // Reading from the top: Send must bring the view back to the bottom.
    await page.page.locator('.transcript').hover();
    await page.page.mouse.wheel(0, -100_000);
    await page.page.waitForFunction(() => !(document.querySelector('.jump-latest') as HTMLElement).hidden);
    const input = page.page.locator('.composer-input');
    await input.fill('A question of\nthree lines\nto clear');
    await page.frame();

    const forced = await layoutsInKeydown(page.page, () => input.press('Enter'));
    assert.deepEqual(forced, [], 'no layout forced while the send leaves');
    assert.deepEqual(await page.postedOf('send'), [
      { type: 'send', text: 'A question of\nthree lines\nto clear' },
    ]);

    await page.frame();
    const shown = await page.page.evaluate(() => {
      const log = document.querySelector('.transcript') as HTMLElement;
      const pending = document.querySelector('.entry-user.pending') as HTMLElement | null;
      const box = pending?.getBoundingClientRect();
      const view = log.getBoundingClientRect();
      const mirror = document.querySelector('.composer-mirror') as HTMLElement;
      const field = document.querySelector('.composer-input') as HTMLTextAreaElement;
      return {
        pendingInView: box !== undefined && box.top >= view.top && box.bottom <= view.bottom,
        atBottom: log.scrollHeight - log.scrollTop - log.clientHeight < 2,
        readingAbove: log.classList.contains('reading-above'),
        jumpHidden: (document.querySelector('.jump-latest') as HTMLElement).hidden,
        box: { value: field.value, scrollTop: field.scrollTop, mirrorScrollTop: mirror.scrollTop },
      };
    });
    assert.deepEqual(shown, {
      pendingInView: true,
      atBottom: true,
      readingAbove: false,
      jumpHidden: true,
      box: { value: '', scrollTop: 0, mirrorScrollTop: 0 },
    });
    page.assertClean();
  });
});
