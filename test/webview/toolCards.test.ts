import assert from 'node:assert/strict';
import {
  events,
  RUNNING_COMMAND,
  snapshot,
  terminalOutput,
  toolCall,
  turn,
  updated,
} from './support/builders';
import { useChatPages } from './support/suite';

describe('webview: tool call cards', () => {
  const chat = useChatPages();

  it('shows kind icon, title, status; open while running, closed when done', async () => {
    const page = await chat.open();
    const call = toolCall('e1', { title: 'Search for TODO', toolKind: 'search', status: 'pending' });
    await page.host(snapshot({ entries: [call], turns: [turn('t1')] }));
    const card = page.page.locator('[data-entry-id="e1"]');
    const header = card.locator('.disclosure-header');
    assert.equal(await card.locator('.tool-kind .codicon-search').count(), 1);
    assert.equal(await card.locator('.tool-title').textContent(), 'Search for TODO');
    assert.equal(await card.locator('.tool-status').getAttribute('aria-label'), 'Pending');
    assert.equal(await header.getAttribute('aria-expanded'), 'true');

    await page.host(events(updated({ ...call, status: 'in_progress' })));
    assert.equal(await card.locator('.tool-status .codicon-loading.codicon-modifier-spin').count(), 1);
    assert.equal(await header.getAttribute('aria-expanded'), 'true');

    await page.host(events(updated({ ...call, status: 'completed' })));
    assert.equal(await card.locator('.tool-status').getAttribute('aria-label'), 'Completed');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    assert.equal(await card.locator('.disclosure-body').isVisible(), false);

    await page.host(events(updated({ ...RUNNING_COMMAND, status: 'failed' })));
    assert.equal(await card.locator('.tool-status .codicon-error').count(), 1);
  });

  it('maps every tool kind to its codicon', async () => {
    const page = await chat.open();
    const kinds = {
      read: 'file',
      edit: 'edit',
      delete: 'trash',
      move: 'arrow-swap',
      search: 'search',
      execute: 'terminal',
      think: 'lightbulb',
      fetch: 'globe',
      switch_mode: 'arrow-both',
      other: 'tools',
    } as const;
    await page.host(
      snapshot({
        entries: Object.keys(kinds).map((kind) => toolCall(kind, { toolKind: kind as keyof typeof kinds })),
      }),
    );
    for (const [kind, iconName] of Object.entries(kinds)) {
      assert.equal(
        await page.page.locator(`[data-entry-id="${kind}"] .tool-kind .codicon-${iconName}`).count(),
        1,
        kind,
      );
    }
  });

  it('respects the user toggling a card', async () => {
    const page = await chat.open();
    const call = toolCall('e1', { status: 'in_progress', content: [{ type: 'text', text: 'working' }] });
    await page.host(snapshot({ entries: [call], turns: [turn('t1')] }));
    const header = page.page.locator('[data-entry-id="e1"] .disclosure-header');
    await header.click();
    assert.equal(await header.getAttribute('aria-expanded'), 'false', 'the user closed it while running');
    await page.host(events(updated({ ...call, content: [{ type: 'text', text: 'still working' }] })));
    assert.equal(await header.getAttribute('aria-expanded'), 'false', 'an update does not reopen it');
    await header.click();
    await page.host(events(updated({ ...call, status: 'completed' })));
    assert.equal(
      await header.getAttribute('aria-expanded'),
      'true',
      'completion does not close what the user opened',
    );
    await header.press('Enter');
    assert.equal(await header.getAttribute('aria-expanded'), 'false', 'keyboard toggles it');
  });

  it('renders a diff with + and − lines, a gutter and counts', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [
          toolCall('e1', {
            title: 'Edit a.ts',
            toolKind: 'edit',
            status: 'in_progress',
            content: [
              {
                type: 'diff',
                path: '/w/a.ts',
                oldText: 'one\ntwo\nthree\n',
                newText: 'one\n2\nthree\nfour\n',
              },
            ],
          }),
          toolCall('e2', {
            title: 'Create b.ts',
            toolKind: 'edit',
            status: 'in_progress',
            content: [{ type: 'diff', path: '/w/b.ts', oldText: null, newText: 'new\n' }],
          }),
        ],
      }),
    );
    const diff = page.page.locator('[data-entry-id="e1"] .diff');
    assert.deepEqual(await diff.locator('.diff-del .diff-text').allTextContents(), ['two']);
    assert.deepEqual(await diff.locator('.diff-add .diff-text').allTextContents(), ['2', 'four']);
    assert.deepEqual(await diff.locator('.diff-del .diff-sign').allTextContents(), ['−']);
    assert.deepEqual(await diff.locator('.diff-add .diff-sign').allTextContents(), ['+', '+']);
    assert.equal(await diff.locator('.diff-stat-add').textContent(), '+2');
    assert.equal(await diff.locator('.diff-stat-del').textContent(), '−1');
    assert.equal(await diff.locator('.diff-stats').getAttribute('aria-label'), '2 lines added, 1 removed');
    assert.deepEqual(await diff.locator('.diff-context .diff-gutter').allTextContents(), [
      '1',
      '1',
      '3',
      '3',
    ]);
    assert.equal(await page.page.locator('[data-entry-id="e2"] .diff-badge').textContent(), 'New file');
    await diff.locator('.diff-path').click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'open_file', path: '/w/a.ts', line: 2 });
  });

  it('caps a huge diff and says how much is hidden', async () => {
    const page = await chat.open();
    const newText = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    await page.host(
      snapshot({
        entries: [
          toolCall('e1', {
            status: 'in_progress',
            content: [{ type: 'diff', path: '/w/big.txt', oldText: null, newText }],
          }),
        ],
      }),
    );
    const rows = await page.page.locator('[data-entry-id="e1"] .diff-add').count();
    assert.ok(rows <= 1500, `${rows} rows drawn`);
    assert.match(
      await page.page.locator('[data-entry-id="e1"] .diff .note').first().innerText(),
      /3,500 more lines/,
    );
  });

  it('shows terminal output as it arrives, with the exit status', async () => {
    const page = await chat.openShowing(snapshot({ entries: [RUNNING_COMMAND], turns: [turn('t1')] }));
    const terminal = page.page.locator('[data-entry-id="e1"] .terminal');
    assert.match(await terminal.locator('.terminal-status').innerText(), /Waiting for output/);
    await page.host(terminalOutput({ output: '\u001b[32mok\u001b[0m 1\nprogress 10%\rprogress 100%\n' }));
    assert.equal(await terminal.locator('.terminal-output').textContent(), 'ok 1\nprogress 100%\n');
    assert.match(await terminal.locator('.terminal-status').innerText(), /Running/);
    // "Open in terminal": VS Code's terminal for it, opened on demand (by keyboard too).
    await terminal.getByRole('button', { name: 'Open in terminal' }).focus();
    await page.page.keyboard.press('Enter');
    assert.deepEqual(await page.postedOf('open_terminal'), [{ type: 'open_terminal', terminalId: 'term-1' }]);
    await page.host(
      terminalOutput({
        output: 'ok 1\nfailed\n',
        truncated: true,
        exitStatus: { exitCode: 2, signal: null },
      }),
    );
    assert.equal(await terminal.locator('.terminal-output').textContent(), 'ok 1\nfailed\n');
    assert.equal(await terminal.locator('.terminal-status').innerText(), 'Exit code 2');
    assert.equal(await terminal.getAttribute('data-state'), 'failure');
    assert.equal(await terminal.locator('.note-truncated').isVisible(), true);
    // A status change of the card keeps the terminal element and its output.
    await page.host(events(updated({ ...RUNNING_COMMAND, status: 'failed' })));
    await page.page.locator('[data-entry-id="e1"] .disclosure-header').click();
    assert.equal(await terminal.locator('.terminal-output').textContent(), 'ok 1\nfailed\n');
  });

  it('appends terminal output deltas, also when a line, a \\r rewrite or a colour code spans two', async () => {
    const page = await chat.openShowing(snapshot({ entries: [RUNNING_COMMAND], turns: [turn('t1')] }));
    const output = page.page.locator('[data-entry-id="e1"] .terminal-output');
    await page.host(terminalOutput({ output: 'line 1\nprogress 1' }));
    assert.equal(await output.textContent(), 'line 1\nprogress 1');
    await page.host(terminalOutput({ output: '0%\rprogress 100%\n\u001b[3', append: true }));
    assert.equal(await output.textContent(), 'line 1\nprogress 100%\n');
    await page.host(
      terminalOutput({
        output: '2mgreen\u001b[0m\n',
        append: true,
        exitStatus: { exitCode: 0, signal: null },
      }),
    );
    assert.equal(await output.textContent(), 'line 1\nprogress 100%\ngreen\n');
    assert.equal(await page.page.locator('[data-entry-id="e1"] .terminal-status').innerText(), 'Exit code 0');
    // A full message (no append) replaces what was shown.
    await page.host(terminalOutput({ output: 'later part only\n', truncated: true }));
    assert.equal(await output.textContent(), 'later part only\n');
  });

  it('shows terminal output that arrived before its card', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.host(terminalOutput({ output: 'early\n', exitStatus: { exitCode: 0, signal: null } }));
    await page.host(
      events({
        type: 'entry_added',
        entry: toolCall('e1', { status: 'completed', content: [{ type: 'terminal', terminalId: 'term-1' }] }),
      }),
    );
    await page.page.locator('[data-entry-id="e1"] .disclosure-header').click();
    assert.equal(await page.page.locator('[data-entry-id="e1"] .terminal-output').textContent(), 'early\n');
    assert.equal(await page.page.locator('[data-entry-id="e1"] .terminal-status').innerText(), 'Exit code 0');
  });

  it('opens locations as path:line and shows text content in a scrollable pre', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [
          toolCall('e1', {
            status: 'in_progress',
            locations: [{ path: '/w/src/a.ts', line: 42 }, { path: '/w/src/b.ts' }],
            content: [{ type: 'text', text: 'x'.repeat(50) + '\n'.repeat(100) }],
          }),
        ],
      }),
    );
    const locations = page.page.locator('[data-entry-id="e1"] .location');
    assert.deepEqual(await locations.allInnerTexts(), ['/w/src/a.ts:42', '/w/src/b.ts']);
    await locations.first().click();
    await locations.nth(1).click();
    assert.deepEqual((await page.posted()).slice(1), [
      { type: 'open_file', path: '/w/src/a.ts', line: 42 },
      { type: 'open_file', path: '/w/src/b.ts' },
    ]);
    const scrollable = await page.page
      .locator('[data-entry-id="e1"] .tool-text')
      .evaluate((pre) => pre.scrollHeight > pre.clientHeight && getComputedStyle(pre).overflowY === 'auto');
    assert.equal(scrollable, true);
  });

  it("builds a folded card's content only when it is opened", async () => {
    const page = await chat.open();
    const diff = { type: 'diff' as const, path: '/w/a.ts', oldText: 'a\n', newText: 'b\n' };
    await page.host(snapshot({ entries: [toolCall('e1', { status: 'completed', content: [diff] })] }));
    const card = page.page.locator('[data-entry-id="e1"]');
    assert.equal(await card.locator('.diff').count(), 0);
    await card.locator('.disclosure-header').click();
    assert.equal(await card.locator('.diff-add .diff-text').textContent(), 'b');
  });
});
