import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  MAX_LINKS,
  readLinkTarget,
  readLinks,
  withLinkChanges,
} from '../../../src/features/checkpoints/core/linkTargets';

describe('checkpoints: the links of a folder and what a diff says of them', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-links-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(`records at most ${MAX_LINKS} links, and cuts a target to 1024 characters`, async () => {
    const rels: string[] = [];
    for (let i = 0; i <= MAX_LINKS; i++) {
      const rel = `l${String(i).padStart(5, '0')}`;
      symlinkSync('x'.repeat(i === 0 ? 3000 : 1), path.join(dir, rel));
      rels.push(rel);
    }
    const links = await readLinks(dir, rels);
    assert.equal(links.size, MAX_LINKS);
    assert.equal(links.get('l00000')?.length, 1024);
    assert.equal(links.has(`l${String(MAX_LINKS).padStart(5, '0')}`), false);
  });

  it('a path that is not a link has no target, and a link is read, never followed', async () => {
    writeFileSync(path.join(dir, 'file'), 'x');
    symlinkSync(path.join(dir, 'missing'), path.join(dir, 'dangling'));
    assert.equal(await readLinkTarget(path.join(dir, 'file')), undefined);
    assert.equal(await readLinkTarget(path.join(dir, 'dangling')), path.join(dir, 'missing'));
    assert.deepEqual(
      [...(await readLinks(dir, ['file', 'dangling']))],
      [['dangling', path.join(dir, 'missing')]],
    );
  });

  it('a link is created only where the earlier checkpoint is known to have had no link there', () => {
    const none = { added: 0, removed: 0, binary: false };
    const after = new Map([
      ['new', '/t'],
      ['moved', '/elsewhere'],
    ]);
    assert.deepEqual(
      withLinkChanges([], new Map([['moved', '/t']]), after).map((c) => [c.rel, c.kind, c.unrecorded]),
      [
        ['new', 'created', undefined],
        ['moved', 'modified', true],
      ],
    );
    assert.deepEqual(
      withLinkChanges([], 'unknown', after).map((c) => [c.rel, c.kind, c.unrecorded]),
      [
        ['new', 'modified', true],
        ['moved', 'modified', true],
      ],
      'links at the earlier checkpoint unknown: none is called created',
    );
    assert.deepEqual(
      withLinkChanges(
        [{ rel: 'dir/a', kind: 'deleted', ...none }],
        new Map(),
        new Map([['dir', '/out']]),
      ).map((c) => [c.rel, c.kind, c.unrecorded]),
      [
        ['dir/a', 'deleted', undefined],
        ['dir', 'modified', true],
      ],
      'a folder replaced by a link: the link is not created, and what was there is not put back as a link',
    );
    assert.deepEqual(
      withLinkChanges([], new Map([['gone', '/t']]), new Map()).map((c) => [c.rel, c.kind, c.link]),
      [['gone', 'deleted', { target: '/t' }]],
    );
  });
});
