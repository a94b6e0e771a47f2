// A one-off probe (issue 23), not part of `npm run bench`: what the page's JS heap holds after a
// 2,000-turn chat was opened, scrolled top to bottom and switched away from, beside the empty page
// before, by two heap snapshots (DevTools protocol) grouped by constructor name.
// `node bench/heapDiff.mjs` after `node esbuild.mjs --production`; prints the 25 largest growths
// (WARM=1: the code warmed first; JS_ONLY=1: V8's objects only, not Blink's).
/* global window, document, requestAnimationFrame */
import { snapshotSummary } from './heapSnapshot.mjs';
import { withProbePage } from './webviewPage.mjs';
import { longChatSnapshot } from './workloads.mjs';

await withProbePage(async ({ page, cdp }) => {
  // The code warmed first (a 20-turn chat opened, scrolled and switched away from), so what is
  // left after the long chat is what its size holds, not the code it compiled.
  for (const turns of process.env.WARM ? [20, 0] : []) {
    await page.evaluate((snapshot) => window.__step(snapshot), longChatSnapshot(turns));
  }
  const before = await snapshotSummary(cdp);
  await page.evaluate(
    (snapshot) => window.__step(snapshot),
    longChatSnapshot(Number(process.env.TURNS ?? 2000)),
  );
  await page.evaluate(async () => {
    const log = document.querySelector('.transcript');
    for (let i = 0; i < 5000 && (log.scrollTop > 0 || document.querySelector('.turn-deferred')); i++) {
      log.scrollTop = Math.max(0, log.scrollTop - 3000);
      await new Promise((done) => requestAnimationFrame(done));
      if (log.scrollTop === 0 && document.querySelector('[data-entry-id="u1"]')) {
        break;
      }
    }
    log.scrollTop = log.scrollHeight;
    await new Promise((done) => requestAnimationFrame(done));
  });
  await page.evaluate((empty) => window.__step(empty), longChatSnapshot(0));
  const after = await snapshotSummary(cdp);
  const rows = [];
  for (const [key, entry] of after.summary) {
    const old = before.summary.get(key) ?? { count: 0, size: 0 };
    rows.push({ key, count: entry.count - old.count, kb: (entry.size - old.size) / 1024 });
  }
  rows.sort((a, b) => b.kb - a.kb);
  const total = (s) => [...s.values()].reduce((sum, e) => sum + e.size, 0) / 1024 / 1024;
  console.log(
    `heap snapshot: ${total(before.summary).toFixed(2)} MB before, ${total(after.summary).toFixed(2)} MB after`,
  );
  console.log(`detached nodes after: ${after.detached}`);
  const shown = process.env.JS_ONLY ? rows.filter((row) => !row.key.startsWith('native:')) : rows;
  for (const row of shown.slice(0, 25)) {
    console.log(`${row.kb.toFixed(1).padStart(9)} KB ${String(row.count).padStart(7)}  ${row.key}`);
  }
});
