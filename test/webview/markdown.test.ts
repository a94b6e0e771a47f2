import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { message, snapshot } from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

const DOC = [
  '# Title',
  '## Subtitle',
  '',
  'Some *emphasis* and `inline code`.',
  '',
  '- one',
  '- two',
  '',
  '1. first',
  '2. second',
  '',
  '```typescript',
  'const answer = 42;',
  '```',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '> quoted',
  '',
  'Links: [site](https://example.com/docs?q=1), [abs](/work/app/src/main.ts:12), [uri](file:///work/app/a%20b.ts#L7),',
  '[rel](src/util.ts), [bad](javascript:window.__xss=1), [data](data:text/html,<b>x</b>), https://auto.link/path',
  '',
  '![diagram](https://example.com/x.png)',
].join('\n');

describe('webview: markdown', () => {
  const chat = useChatPages();

  it('renders headings, lists, quotes, tables and code with a language label', async () => {
    const page = await chat.openShowing(snapshot({ entries: [message('agent', 'e1', DOC)] }));
    const root = page.page.locator('[data-entry-id="e1"] .markdown');
    assert.equal(await root.locator('h1').textContent(), 'Title');
    assert.equal(await root.locator('h2').textContent(), 'Subtitle');
    assert.deepEqual(await root.locator('ul > li').allTextContents(), ['one', 'two']);
    assert.deepEqual(await root.locator('ol > li').allTextContents(), ['first', 'second']);
    assert.equal(await root.locator('em').textContent(), 'emphasis');
    assert.equal(await root.locator('p > code').textContent(), 'inline code');
    assert.equal(await root.locator('blockquote').innerText(), 'quoted');
    assert.deepEqual(await root.locator('td').allTextContents(), ['1', '2']);
    assert.equal(await root.locator('.code-lang').textContent(), 'typescript');
    assert.equal(await root.locator('pre code.language-typescript').textContent(), 'const answer = 42;\n');
    assert.equal(await root.locator('img').count(), 0, 'images are not loaded');
  });

  it('aligns table columns with classes, not the style attributes the CSP would block', async () => {
    const page = await chat.open();
    const table = ['| left | middle | right |', '| :--- | :---: | ---: |', '| a | b | c |'].join('\n');
    await page.host(snapshot({ entries: [message('agent', 'e1', table)] }));
    const cells = page.page.locator('[data-entry-id="e1"] td');
    assert.deepEqual(await cells.evaluateAll((tds) => tds.map((td) => getComputedStyle(td).textAlign)), [
      'left',
      'center',
      'right',
    ]);
    assert.equal(await page.page.locator('[data-entry-id="e1"] [style]').count(), 0);
    assert.deepEqual(await page.page.evaluate(() => window.__cspViolations), []);
  });

  it('decodes named entities like markdown-it does, and leaves unknown or prefix-only ones as written', async () => {
    const page = await chat.open();
    const text = 'A &copy; B &amp; C &NotEqualTilde; D &ampx; E &nosuchentity; F &lt;b&gt;';
    await page.host(snapshot({ entries: [message('agent', 'e1', text)] }));
    const paragraph = page.page.locator('[data-entry-id="e1"] .markdown p');
    assert.equal(await paragraph.textContent(), 'A © B & C \u2242\u0338 D &ampx; E &nosuchentity; F <b>');
    assert.equal(await paragraph.locator('b').count(), 0);
  });

  it('links a non-ASCII host by its ASCII name and shows a look-alike host as it is (xn--…)', async () => {
    const page = await chat.open();
    const text = '[shop](https://bücher.example/a) and https://xn--pple-43d.com/login';
    await page.host(snapshot({ entries: [message('agent', 'e1', text)] }));
    const links = page.page.locator('[data-entry-id="e1"] .markdown a');
    assert.equal(await links.nth(0).getAttribute('href'), 'https://xn--bcher-kva.example/a');
    // The host written in Cyrillic letters that look like "apple" is not shown as "аpple.com".
    assert.equal(await links.nth(1).textContent(), 'https://xn--pple-43d.com/login');
    assert.equal(await links.nth(1).getAttribute('href'), 'https://xn--pple-43d.com/login');
  });

  it('autolinks web URLs and www. hosts like GitHub, not file names, e-mails or code', async () => {
    const page = await chat.open();
    const text = [
      'See https://en.wikipedia.org/wiki/Foo_(bar), (www.example.com/docs).',
      'Edit foo.md and src/a.ts, mail user@example.com or mailto:user@example.com, not `https://in.code`.',
    ].join('\n');
    await page.host(snapshot({ entries: [message('agent', 'e1', text)] }));
    const links = page.page.locator('[data-entry-id="e1"] .markdown a');
    assert.deepEqual(await links.allTextContents(), [
      'https://en.wikipedia.org/wiki/Foo_(bar)',
      'www.example.com/docs',
    ]);
    assert.deepEqual(await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('data-link'))), [
      'url',
      'url',
    ]);
    await page.page.locator('[data-entry-id="e1"]').screenshot({ path: `${OUT}/markdown-autolinks.png` });
    await links.nth(1).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'open_url', url: 'https://www.example.com/docs' });
  });

  it('copies a code block with its Copy button', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('agent', 'e1', '```sh\nnpm test -- --grep "a b"\n```')] }),
    );
    await page.page.bringToFront();
    const copy = page.page.locator('.code-copy');
    assert.equal(await copy.getAttribute('aria-label'), 'Copy code');
    await copy.click();
    await page.page.waitForFunction(
      () => document.querySelector('.code-copy-label')?.textContent === 'Copied',
    );
    assert.equal(
      await page.page.evaluate(() => navigator.clipboard.readText()),
      'npm test -- --grep "a b"\n',
    );
  });

  it('falls back when the clipboard API refuses', async () => {
    const page = await chat.openShowing(snapshot({ entries: [message('agent', 'e1', '```\nsecret\n```')] }));
    // A string: functions nested in an evaluate callback get helpers the page does not have.
    await page.page.evaluate(
      "Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } })",
    );
    await page.page.locator('.code-copy').click();
    await page.page.waitForFunction(() => document.querySelector('.code-copy-label')?.textContent !== 'Copy');
    assert.equal(
      await page.page.evaluate(() => window.getSelection()?.toString().trim()),
      'secret',
      'the code is selected',
    );
  });

  it('routes links: web → open_url, files → open_file, everything else inert', async () => {
    const page = await chat.openShowing(snapshot({ entries: [message('agent', 'e1', DOC)] }));
    const link = (name: string) => page.page.locator('[data-entry-id="e1"] .markdown a', { hasText: name });
    await link('site').click();
    await link('abs').click();
    await link('uri').click();
    await link('rel').click();
    await link('auto.link').click();
    await link('diagram').click();
    await link('bad').click();
    await link('data').click();
    assert.deepEqual((await page.posted()).slice(1), [
      { type: 'open_url', url: 'https://example.com/docs?q=1' },
      { type: 'open_file', path: '/work/app/src/main.ts', line: 12 },
      { type: 'open_file', path: '/work/app/a b.ts', line: 7 },
      { type: 'open_file', path: 'src/util.ts' },
      { type: 'open_url', url: 'https://auto.link/path' },
      { type: 'open_url', url: 'https://example.com/x.png' },
    ]);
    assert.equal(await link('bad').getAttribute('href'), null);
    assert.equal(await link('data').getAttribute('href'), null);
    assert.equal(await page.page.evaluate(() => window.__xss), undefined);
    assert.equal(page.page.url().endsWith('/chat.html?theme=dark'), true, 'the page never navigated');
  });

  it('renders user messages as markdown too, with attachment chips', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [
          message('user', 'u1', 'Please look at **this**', {
            attachments: [
              { type: 'resource_link', uri: 'file:///work/app/src/a.ts', name: 'a.ts' },
              { type: 'image', mimeType: 'image/png', bytes: 2048 },
            ],
          }),
        ],
      }),
    );
    assert.equal(await page.page.locator('[data-entry-id="u1"] strong').textContent(), 'this');
    const chips = page.page.locator('[data-entry-id="u1"] .chip');
    assert.deepEqual(await chips.locator('.chip-label').allTextContents(), ['a.ts', 'Image (image/png)']);
    assert.equal(await chips.nth(1).locator('.chip-detail').textContent(), '2.0 KB');
    await chips.first().click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'open_file', path: '/work/app/src/a.ts' });
  });

  it('shows the truncation marker and a note', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [
          message('agent', 'e1', 'Start… [truncated]', { truncated: { limit: 100, omittedChars: 5000 } }),
        ],
      }),
    );
    assert.match(await page.page.locator('[data-entry-id="e1"] .markdown').innerText(), /\[truncated\]/);
    assert.match(
      await page.page.locator('[data-entry-id="e1"] .note-truncated').innerText(),
      /5,000 characters/,
    );
  });
});
