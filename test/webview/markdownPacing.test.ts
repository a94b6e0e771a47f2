import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { appended, events, message, snapshot, turn } from './support/builders';
import { useChatPages } from './support/suite';

/** What the page tells the markdown worker each frame showing its answers cost, kept in `window.__shown`. */
async function recordShown(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const post = Worker.prototype.postMessage;
    window.__shown = [];
    Worker.prototype.postMessage = function (data, ...rest) {
      if (data && data.type === 'shown') {
        window.__shown.push(data.ms);
      }
      return post.call(this, data, ...rest);
    };
  })()`);
}

/** A table of `rows` rows: one block, parsed again whole and laid out again whole at each change. */
function longTable(rows: number): string {
  const body = Array.from({ length: rows }, (_, n) => `| ${n} | item **${n}** | \`x${n}\` |\n`);
  return `| n | name | note |\n| --- | :-: | --- |\n${body.join('')}`;
}

describe('webview: the markdown worker paced by the page', () => {
  const chat = useChatPages();

  it('hears what each frame showing its answers cost; a long table sent at once ends as a render once', async () => {
    const page = await chat.open({ beforeLoad: recordShown });
    await page.page.waitForFunction(() => window.__markdown.worker === 'ready');
    await page.host(snapshot({ entries: [message('agent', 's', '')], turns: [turn('t1')] }));
    const text = longTable(1500);
    // Cut at odd places (inside rows and cells), every message posted before the page has shown any.
    const size = Math.ceil(text.length / 60) + 7;
    const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, n) =>
      events(appended('s', text.slice(n * size, (n + 1) * size))),
    );
    await page.page.evaluate(
      (list) =>
        new Promise<void>((resolve) => {
          const seen = { handled: 0 };
          window.addEventListener('message', () => {
            // After the view's own listener: the view has handled it and asked for its frame.
            if (++seen.handled !== list.length) {
              return;
            }
            requestAnimationFrame(() => {
              if (window.__markdown.busy) {
                window.addEventListener('acp-markdown-settled', () => resolve(), { once: true });
              } else {
                resolve();
              }
            });
          });
          list.forEach((data) => window.postMessage(data, '*'));
        }),
      chunks,
    );
    const html = () => page.page.locator('[data-entry-id="s"] .markdown').evaluate((root) => root.innerHTML);
    const streamed = await html();
    await page.host(snapshot({ entries: [message('agent', 's', text)] }));
    assert.equal(streamed, await html(), 'the streamed table is the table rendered once');
    const shown = await page.page.evaluate(() => (window as unknown as { __shown: number[] }).__shown);
    assert.ok(shown.length > 0, 'the page told the worker what showing its answers cost');
    assert.ok(
      shown.every((ms) => Number.isFinite(ms) && ms >= 0),
      `frame costs: ${shown.join(', ')}`,
    );
    page.assertClean();
  });
});
