/**
 * Renders the marketplace icon media/icon.png (128×128) from the activity-bar glyph media/acp.svg: the glyph in
 * white on a rounded gradient tile, drawn by headless Chromium so the PNG needs no image tool. Run it after
 * changing acp.svg and commit the PNG: `node scripts/makeIcon.mjs`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath, repoRoot } from './tools.mjs';

const SIZE = 128;
const glyph = readFileSync(join(repoRoot, 'media', 'acp.svg'), 'utf8');
const html = `<!doctype html><html><head><style>
  html, body { margin: 0; width: ${SIZE}px; height: ${SIZE}px; background: transparent; overflow: hidden; }
  .tile { width: ${SIZE}px; height: ${SIZE}px; border-radius: 24px; display: flex; align-items: center;
          justify-content: center; background: linear-gradient(135deg, #3b5bdb, #7048e8); color: #fff; }
  svg { width: 96px; height: 96px; }
</style></head><body><div class="tile">${glyph}</div></body></html>`;

const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  await page.setContent(html);
  const out = join(repoRoot, 'media', 'icon.png');
  await page.screenshot({ path: out, omitBackground: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
