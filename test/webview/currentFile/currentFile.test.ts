import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CurrentFile } from '../../../src/protocol';
import { snapshot } from '../support/builders';
import { useChatPages } from '../support/suite';

const OUT = resolve(__dirname, '../../../test-results');
const APP: CurrentFile = { uri: 'file:///work/project/src/app.ts', name: 'app.ts', kind: 'file' };
const UTIL: CurrentFile = { uri: 'file:///work/project/src/util.ts', name: 'util.ts', kind: 'file' };

describe('webview: the current file offered on the composer', () => {
  const chat = useChatPages();

  for (const theme of ['light', 'dark'] as const) {
    it(`shows it as a dashed "current file" chip, not an attachment chip (screenshot, ${theme})`, async () => {
      const page = await chat.openShowing(
        snapshot(
          {},
          {
            currentFile: APP,
            attachments: [{ kind: 'file', uri: 'file:///work/project/README.md', name: 'README.md' }],
          },
        ),
        { theme, width: 420, height: 320 },
      );
      const chip = page.page.locator('.current-file-chip');
      assert.equal(await chip.count(), 1);
      assert.equal(await chip.locator('.chip-label').innerText(), 'app.ts');
      assert.equal(await chip.locator('.chip-detail').innerText(), 'current file');
      assert.equal(await chip.evaluate((el) => el.classList.contains('composer-chip')), false);
      assert.equal(await chip.evaluate((el) => getComputedStyle(el).borderTopStyle), 'dashed');
      await page.page.locator('.composer-input').fill('What does this do?');
      await mkdir(OUT, { recursive: true });
      await page.page.screenshot({ path: `${OUT}/current-file-${theme}.png` });
    });
  }

  it('goes with the message as a mentioned file, follows the active editor, and is not sent twice', async () => {
    const page = await chat.openShowing(snapshot({}, { currentFile: APP }));
    await page.send('Explain');
    const [sent] = await page.postedOf('send');
    assert.deepEqual(sent?.attachments, [APP]);

    // Another editor: the chip follows; none (untitled, outside the workspace): it goes away.
    await page.host({ type: 'current_file', file: UTIL });
    assert.equal(await page.page.locator('.current-file-chip .chip-label').innerText(), 'util.ts');
    await page.host({ type: 'current_file' });
    assert.equal(await page.page.locator('.current-file-chip').count(), 0);
    assert.equal(await page.page.locator('.current-file').isHidden(), true);
  });

  it('is not sent twice when it is also @-mentioned: it goes once, as the mention', async () => {
    const page = await chat.openShowing(snapshot({}, { currentFile: UTIL, attachments: [{ ...UTIL }] }));
    assert.equal(await page.page.locator('.current-file-chip').count(), 0);
    await page.send('And this?');
    const [sent] = await page.postedOf('send');
    assert.deepEqual(sent?.attachments, [UTIL]);
  });

  it('can be removed for this message by keyboard, and is offered again for the next', async () => {
    const page = await chat.openShowing(snapshot({}, { currentFile: APP }));
    const remove = page.page.getByRole('button', {
      name: "Don't send app.ts (the current file) with this message",
    });
    await remove.focus();
    await page.page.keyboard.press('Enter');
    assert.equal(await page.page.locator('.current-file-chip').count(), 0);
    // The focus goes back to the message box.
    assert.equal(await page.page.evaluate(() => document.activeElement?.className), 'composer-input');
    await page.page.keyboard.type('Without the file');
    await page.page.keyboard.press('Enter');
    const [sent] = await page.postedOf('send');
    assert.equal(sent?.attachments, undefined);
    assert.equal(await page.page.locator('.current-file-chip .chip-label').innerText(), 'app.ts');
  });
});
