import assert from 'node:assert/strict';
import { added, appended, ended, events, message, snapshot, started, turn } from './support/builders';
import { useChatPages } from './support/suite';

/** 200 chunks of markdown: paragraphs, a list and a code fence split at awkward places. */
function chunks(): string[] {
  const paragraphs: string[] = [];
  for (let i = 0; i < 20; i++) {
    paragraphs.push(`Paragraph ${i} explains step ${i} of the fix in a sentence or two.`);
    if (i % 5 === 2) {
      paragraphs.push('```js\nconst step = ' + i + ';\n\nconsole.log(step);\n```');
    }
    if (i % 7 === 3) {
      paragraphs.push('- first point\n- second point');
    }
  }
  const text = paragraphs.join('\n\n');
  const result: string[] = [];
  for (let i = 0; i < 200; i++) {
    result.push(text.slice(Math.floor((i * text.length) / 200), Math.floor(((i + 1) * text.length) / 200)));
  }
  return result;
}

describe('webview: streaming', () => {
  const chat = useChatPages();

  it('200 text_appended chunks give exactly the joined text, and early blocks are kept', async () => {
    const page = await chat.openShowing(snapshot());
    await page.host(
      events(started(turn('t1')), added(message('user', 'e1', 'Explain')), added(message('agent', 'e2', ''))),
    );
    const parts = chunks();
    for (const [index, part] of parts.entries()) {
      await page.host(events(appended('e2', part)));
      if (index === 60) {
        // Keep a handle on the first stable block rendered so far.
        await page.page.evaluate(() => {
          const first = document.querySelector('[data-entry-id="e2"] .md-block');
          (window as unknown as { __firstBlock: Element | null }).__firstBlock = first;
        });
      }
    }
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));

    const { sameNode, codeBlocks, paragraphCount, blocks } = await page.page.evaluate(() => {
      const root = document.querySelector('[data-entry-id="e2"] .markdown') as HTMLElement;
      const first = (window as unknown as { __firstBlock: Element | null }).__firstBlock;
      return {
        sameNode: first !== null && root.querySelector('.md-block') === first && first.isConnected,
        codeBlocks: root.querySelectorAll('.code-block').length,
        paragraphCount: root.querySelectorAll('p').length,
        blocks: root.querySelectorAll('.md-block').length,
      };
    });
    assert.equal(sameNode, true, 'the first block element survives the rest of the stream');
    assert.ok(blocks > 10, `rendered as many stable blocks (${blocks})`);
    assert.equal(codeBlocks, 4);
    assert.equal(paragraphCount, 20);

    const paragraphs = await page.page.locator('[data-entry-id="e2"] p').allTextContents();
    assert.deepEqual(
      paragraphs,
      Array.from(
        { length: 20 },
        (_, i) => `Paragraph ${i} explains step ${i} of the fix in a sentence or two.`,
      ),
    );
    const codes = await page.page.locator('[data-entry-id="e2"] code.language-js').allTextContents();
    assert.deepEqual(
      codes,
      [2, 7, 12, 17].map((i) => `const step = ${i};\n\nconsole.log(step);\n`),
    );
  });

  it('matches a one-shot render of the same markdown', async () => {
    const page = await chat.open();
    const text = chunks().join('');
    await page.host(snapshot({ entries: [message('agent', 'one', text)] }));
    const oneShot = await page.page.locator('[data-entry-id="one"] .markdown').innerText();
    await page.host(snapshot({ entries: [message('agent', 'two', '')], turns: [turn('t1')] }));
    for (const part of chunks()) {
      await page.host(events(appended('two', part)));
    }
    assert.equal(await page.page.locator('[data-entry-id="two"] .markdown').innerText(), oneShot);
  });

  it('appends to an open code fence in place while it streams', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 'e1', 'Here:\n\n```py\nprint(1)\n')], turns: [turn('t1')] }),
    );
    const fence = page.page.locator('[data-entry-id="e1"] .md-block-open .code-block');
    assert.equal(await fence.locator('.code-lang').textContent(), 'py');
    await page.page.evaluate(() => {
      (window as unknown as { __fence: Element | null }).__fence = document.querySelector(
        '[data-entry-id="e1"] .md-block-open .code-block',
      );
    });
    await page.host(events(appended('e1', 'print(2)\n'), appended('e1', 'print(3)')));
    const same = await page.page.evaluate(
      () =>
        (window as unknown as { __fence: Element | null }).__fence ===
        document.querySelector('[data-entry-id="e1"] .md-block-open .code-block'),
    );
    assert.equal(same, true, 'the live fence element is updated, not rebuilt');
    assert.equal(await fence.locator('code').textContent(), 'print(1)\nprint(2)\nprint(3)');
    await page.host(events(appended('e1', '\n```\n\nDone.')));
    assert.equal(
      await page.page.locator('[data-entry-id="e1"] .md-block code').last().textContent(),
      'print(1)\nprint(2)\nprint(3)\n',
    );
    assert.equal(await page.page.locator('[data-entry-id="e1"] .markdown > p').innerText(), 'Done.');
  });

  it('opens thinking while it streams and folds it when the answer starts', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.host(events(added(message('thought', 'th', 'Considering options'))));
    const header = page.page.locator('[data-entry-id="th"] .disclosure-header');
    assert.equal(await header.getAttribute('aria-expanded'), 'true');
    assert.equal(
      await page.page.locator('[data-entry-id="th"] .markdown').innerText(),
      'Considering options',
    );
    await page.host(events(added(message('agent', 'ans', 'The answer'))));
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    await header.click();
    assert.equal(await header.getAttribute('aria-expanded'), 'true', 'the user can open it again');
  });

  it('shows thinking done as a render once shows it: a label its end defines links every one of 101 uses', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    const uses = Array.from({ length: 101 }, (_, i) => `Option ${i} per [the notes].`);
    const text = `${uses.join('\n\n')}\n\n[the notes]: https://example.com/notes`;
    await page.host(events(added(message('thought', 'th', ''))));
    for (let at = 0; at < text.length; at += 499) {
      await page.host(events(appended('th', text.slice(at, at + 499))));
    }
    const linked = () =>
      page.page
        .locator('[data-entry-id="th"] .markdown')
        .evaluate((root) => root.querySelectorAll('a[href="https://example.com/notes"]').length);
    assert.equal(await linked(), 0, 'text while it streams: more uses than a frame renders again');
    await page.host(events(added(message('agent', 'ans', 'The answer'))));
    await page.page.locator('[data-entry-id="th"] .disclosure-header').click();
    assert.equal(await linked(), 101, 'linked once the answer started');
  });

  it('folds thinking when the turn ends, and marks only the streaming message busy', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.host(events(added(message('thought', 'th', 'Hmm'))));
    assert.equal(await page.page.locator('[data-entry-id="th"]').getAttribute('aria-busy'), 'true');
    assert.equal(await page.page.locator('.transcript').getAttribute('aria-live'), 'polite');
    assert.equal(await page.page.locator('.transcript').getAttribute('role'), 'log');
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    assert.equal(
      await page.page.locator('[data-entry-id="th"] .disclosure-header').getAttribute('aria-expanded'),
      'false',
    );
    assert.equal(await page.page.locator('[data-entry-id="th"]').getAttribute('aria-busy'), null);
  });

  it('follows the stream, stops when the user scrolls up, and offers Jump to latest', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 'e1', '')], turns: [turn('t1')] }),
      { height: 500 },
    );
    for (let i = 0; i < 40; i++) {
      await page.host(events(appended('e1', `Line ${i} of a long answer.\n\n`)));
    }
    const atBottom = () =>
      page.page.evaluate(() => {
        const log = document.querySelector('.transcript') as HTMLElement;
        return log.scrollHeight - log.scrollTop - log.clientHeight < 40;
      });
    assert.equal(await atBottom(), true);
    assert.equal(await page.page.locator('.jump-latest').isVisible(), false);
    await page.page.locator('.transcript').hover();
    await page.page.mouse.wheel(0, -600);
    await page.page.waitForFunction(() => !(document.querySelector('.jump-latest') as HTMLElement).hidden);
    await page.host(events(appended('e1', 'More text while the user reads.\n\n')));
    assert.equal(await atBottom(), false, 'does not yank the user back down');
    await page.page.locator('.jump-latest').click();
    await page.frame();
    assert.equal(await atBottom(), true);
    assert.equal(await page.page.locator('.jump-latest').isVisible(), false);
  });
});
