import assert from 'node:assert/strict';
import { snapshot, toolCall, turn } from './support/builders';
import { useChatPages } from './support/suite';

describe('webview: opening files from a tool call card', () => {
  const chat = useChatPages();

  it('opens a tool call diff at its first changed line', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [
          toolCall('e1', {
            toolKind: 'edit',
            status: 'in_progress',
            content: [
              {
                type: 'diff',
                path: '/w/a.ts',
                oldText: 'a\nb\nc\nd\ne\nf\n',
                newText: 'a\nb\nc\nd\nE\nf\n',
              },
              { type: 'diff', path: '/w/gone.ts', oldText: 'x\ny\nz\n', newText: 'x\nz\n' },
              { type: 'diff', path: '/w/new.ts', oldText: null, newText: 'hello\n' },
            ],
            locations: [{ path: '/w/a.ts', line: 5 }],
          }),
        ],
        turns: [turn('t1')],
      }),
    );
    await page.clearPosted();
    const paths = page.page.locator('[data-entry-id="e1"] .diff-path');
    for (let i = 0; i < 3; i++) {
      await paths.nth(i).click();
    }
    await page.page.locator('[data-entry-id="e1"] .location').click();
    assert.deepEqual(await page.posted(), [
      { type: 'open_file', path: '/w/a.ts', line: 5 },
      { type: 'open_file', path: '/w/gone.ts', line: 2 },
      { type: 'open_file', path: '/w/new.ts', line: 1 },
      { type: 'open_file', path: '/w/a.ts', line: 5 },
    ]);
    assert.equal(await paths.first().getAttribute('title'), 'Open /w/a.ts at line 5');
  });

  it('shows tool call paths relative to the workspace folder and opens the full path', async () => {
    const page = await chat.open();
    const entry = toolCall('e1', {
      toolKind: 'edit',
      status: 'in_progress',
      content: [{ type: 'diff', path: '/work/app/src/a.ts', oldText: 'a\n', newText: 'b\n' }],
      locations: [{ path: '/work/app/src/a.ts', line: 7 }, { path: '/etc/hosts' }],
    });
    await page.host(snapshot({ entries: [entry], turns: [turn('t1')] }, { workspaceFolders: ['/work/app'] }));
    const card = page.page.locator('[data-entry-id="e1"]');
    assert.deepEqual(await card.locator('.location').allInnerTexts(), ['src/a.ts:7', '/etc/hosts']);
    assert.equal(await card.locator('.location').first().getAttribute('title'), 'Open /work/app/src/a.ts:7');
    assert.equal(await card.locator('.diff-path-text').textContent(), 'src/a.ts');
    await page.clearPosted();
    await card.locator('.location').first().click();
    await card.locator('.diff-path').click();
    assert.deepEqual(await page.posted(), [
      { type: 'open_file', path: '/work/app/src/a.ts', line: 7 },
      { type: 'open_file', path: '/work/app/src/a.ts', line: 1 },
    ]);

    // Without the folders (a host that does not send them) the paths show as they came.
    await page.host(snapshot({ entries: [entry], turns: [turn('t1')] }));
    assert.deepEqual(await card.locator('.location').allInnerTexts(), ['/work/app/src/a.ts:7', '/etc/hosts']);
  });
});
