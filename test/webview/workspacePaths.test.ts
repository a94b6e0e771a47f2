import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileChange, message, snapshot, toolCall, turn, turnChanges } from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');
const ROOT = '/home/someone/projects/acme-app';

describe('webview: workspace-relative paths', () => {
  const chat = useChatPages();

  it('shows paths in tool cards, permission cards and edit reviews relative to the workspace, full on hover', async () => {
    const page = await chat.open({ width: 420, height: 700 });
    const write = toolCall('e1', {
      title: `Write ${ROOT}/src/server/routes/hello.txt`,
      toolKind: 'edit',
      status: 'pending',
      locations: [{ path: `${ROOT}/src/server/routes/hello.txt`, line: 3 }, { path: '/etc/hosts' }],
      content: [
        { type: 'diff', path: `${ROOT}/src/server/routes/hello.txt`, oldText: null, newText: 'hi\n' },
      ],
      permission: {
        key: 'perm-1',
        status: 'pending',
        options: [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }],
      },
    });
    await page.host(
      snapshot(
        { entries: [write], turns: [turn('t1')] },
        {
          workspaceFolders: [ROOT],
          editReviews: [{ id: 'r1', path: `${ROOT}/src/server/routes/hello.txt`, isNew: true }],
        },
      ),
    );

    const card = page.page.locator('[data-entry-id="e1"]');
    const title = card.locator('.tool-title');
    assert.equal(await title.textContent(), 'Write src/server/routes/hello.txt');
    assert.equal(await title.getAttribute('title'), `Write ${ROOT}/src/server/routes/hello.txt`);
    const locations = card.locator('.location');
    assert.deepEqual(await locations.allTextContents(), ['src/server/routes/hello.txt:3', '/etc/hosts']);
    assert.equal(await locations.first().getAttribute('title'), `Open ${ROOT}/src/server/routes/hello.txt:3`);
    assert.equal(await card.locator('.diff-path-text').textContent(), 'src/server/routes/hello.txt');
    assert.equal(
      await card.locator('.diff-path').getAttribute('title'),
      // The diff opens where the edit starts (its first changed line).
      `Open ${ROOT}/src/server/routes/hello.txt at line 1`,
    );
    assert.equal(
      await card.locator('.permission').getAttribute('aria-label'),
      'Permission needed: Write src/server/routes/hello.txt',
    );
    const review = page.page.locator('.review-path');
    assert.equal(await review.textContent(), 'src/server/routes/hello.txt');
    assert.equal(await review.getAttribute('title'), `Open ${ROOT}/src/server/routes/hello.txt`);

    // Opening still uses the full path.
    await locations.first().click();
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'open_file',
      path: `${ROOT}/src/server/routes/hello.txt`,
      line: 3,
    });

    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/webview-relative-paths.png` });
    page.assertClean();
  });

  it('names the folder when the workspace has several, and leaves look-alike folders alone', async () => {
    const page = await chat.open();
    const call = toolCall('e1', {
      title: `Read ${ROOT}/a.ts and ${ROOT}-old/b.ts`,
      locations: [{ path: `${ROOT}/a.ts` }, { path: '/srv/api/main.go' }, { path: `${ROOT}-old/b.ts` }],
    });
    await page.host(
      snapshot({ entries: [call], turns: [turn('t1')] }, { workspaceFolders: [ROOT, '/srv/api'] }),
    );
    const card = page.page.locator('[data-entry-id="e1"]');
    assert.equal(await card.locator('.tool-title').textContent(), `Read acme-app/a.ts and ${ROOT}-old/b.ts`);
    assert.deepEqual(await card.locator('.location').allTextContents(), [
      'acme-app/a.ts',
      'api/main.go',
      `${ROOT}-old/b.ts`,
    ]);
  });

  it("shows a worktree chat's files as the workspace's: the header already says where the chat works", async () => {
    const page = await chat.open();
    const place = '/home/someone/projects/acme-app.worktrees/fix-parser';
    const write = toolCall('e1', {
      title: `Write ${place}/src/parser.ts`,
      locations: [{ path: `${place}/src/parser.ts` }, { path: `${ROOT}/README.md` }],
    });
    const changes = turnChanges([
      fileChange(`${place}/src/parser.ts`, { path: `${place}/src/parser.ts` }),
      fileChange('/etc/hosts', { path: '/etc/hosts' }),
    ]);
    const worktree = { folder: place, name: 'fix-parser', branch: 'acp/fix-parser', base: '1a2b3c4' };
    await page.host(
      snapshot(
        { entries: [write], turns: [turn('t1', { status: 'completed', changes })] },
        { workspaceFolders: [ROOT], worktree },
      ),
    );
    const card = page.page.locator('[data-entry-id="e1"]');
    assert.equal(await card.locator('.tool-title').textContent(), 'Write src/parser.ts');
    assert.deepEqual(await card.locator('.location').allTextContents(), ['src/parser.ts', 'README.md']);
    const rows = page.page.locator('.turn-changes .change-path');
    assert.deepEqual(await rows.locator('.change-name').allTextContents(), ['parser.ts', 'hosts']);
    assert.deepEqual(await rows.locator('.change-folder').allTextContents(), ['src', '/etc']);
    assert.equal(await rows.first().getAttribute('title'), `${place}/src/parser.ts`, 'in full on hover');
    page.assertClean();
  });

  it('cuts a path too long for its row at the start, so the file name stays in view', async () => {
    const page = await chat.open({ width: 300, height: 600 });
    const deep = `${ROOT}/.config/packages/server/src/routes/handlers/greeting-handler.ts`;
    await page.host(
      snapshot(
        {
          entries: [
            toolCall('e1', {
              status: 'pending',
              content: [{ type: 'diff', path: deep, oldText: 'a\n', newText: 'b\n' }],
            }),
          ],
          turns: [turn('t1')],
        },
        { workspaceFolders: [ROOT], editReviews: [{ id: 'r1', path: deep, isNew: false }] },
      ),
    );
    for (const selector of ['.review-path .path-text', '[data-entry-id="e1"] .diff-path-text']) {
      const box = page.page.locator(selector);
      // The text itself is unchanged (and reads left to right, leading dot included).
      assert.equal(await box.innerText(), '.config/packages/server/src/routes/handlers/greeting-handler.ts');
      const [outer, inner] = await box.evaluate((element) => {
        const text = element.querySelector('bdi')!.getBoundingClientRect();
        const frame = element.getBoundingClientRect();
        return [
          [frame.left, frame.right],
          [text.left, text.right],
        ];
      });
      assert.ok(
        inner![0]! < outer![0]!,
        `${selector}: too long for the row (${JSON.stringify([outer, inner])})`,
      );
      assert.ok(Math.abs(inner![1]! - outer![1]!) <= 1, `${selector}: its end (the file name) is in view`);
    }
    await page.page.screenshot({ path: `${OUT}/webview-long-paths.png` });
    page.assertClean();
  });

  it("shows a selection's line range on its chip, not only in the tooltip", async () => {
    const page = await chat.open();
    const uri = `file://${ROOT}/src/hello.ts`;
    const user = message('user', 'e1', 'Explain this', {
      attachments: [
        { type: 'resource', uri: `${uri}#L2-L4`, chars: 42, mimeType: 'text/x-typescript' },
        { type: 'resource', uri: `${uri}#L7`, chars: 9, mimeType: 'text/x-typescript' },
        { type: 'resource', uri, chars: 120, mimeType: 'text/x-typescript' },
      ],
    });
    await page.host(snapshot({ entries: [user], turns: [turn('t1')] }));
    const chips = page.page.locator('[data-entry-id="e1"] .chip-label');
    assert.deepEqual(await chips.allTextContents(), ['hello.ts:2-4', 'hello.ts:7', 'hello.ts']);
  });
});
