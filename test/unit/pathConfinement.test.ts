import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ConfinementRaceError,
  isInside,
  openInside,
  openVerified,
  resolveReal,
  isLexicallyWithin,
} from '../../src/core/files/pathConfinement';

describe('path confinement', () => {
  let base: string;
  let workspace: string;
  let outside: string;
  before(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'acp-confine-'));
    workspace = path.join(base, 'workspace');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(workspace, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'secret.txt'), 'x');
    symlinkSync(outside, path.join(workspace, 'link-out'));
    symlinkSync(path.join(workspace, 'src'), path.join(outside, 'link-in'));
    // A dangling link inside pointing outside, a chain whose last hop dangles outside, a loop.
    symlinkSync(path.join(outside, 'not-there.txt'), path.join(workspace, 'dangling'));
    symlinkSync(path.join(outside, 'hop2'), path.join(workspace, 'hop1'));
    symlinkSync(path.join(outside, 'missing-dir', 'x.txt'), path.join(outside, 'hop2'));
    symlinkSync(path.join(workspace, 'loop-b'), path.join(workspace, 'loop-a'));
    symlinkSync(path.join(workspace, 'loop-a'), path.join(workspace, 'loop-b'));
    // src/deep-link -> outside/nested/deeper: `deep-link/..` is outside/nested, not src.
    mkdirSync(path.join(outside, 'nested', 'deeper'), { recursive: true });
    symlinkSync(path.join(outside, 'nested', 'deeper'), path.join(workspace, 'src', 'deep-link'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('accepts files inside the workspace, existing or not, and the root itself', async () => {
    assert.equal(await isInside(path.join(workspace, 'src', 'a.ts'), [workspace]), true);
    assert.equal(await isInside(path.join(workspace, 'new', 'deep', 'file.ts'), [workspace]), true);
    assert.equal(await isInside(workspace, [workspace]), true);
  });

  it('refuses paths outside, also by .. and by a symlink', async () => {
    assert.equal(await isInside(path.join(outside, 'secret.txt'), [workspace]), false);
    assert.equal(await isInside(`${workspace}/src/../../outside/secret.txt`, [workspace]), false);
    assert.equal(await isInside(path.join(workspace, 'link-out', 'secret.txt'), [workspace]), false);
    assert.equal(await isInside(path.join(workspace, 'link-out', 'not-yet.txt'), [workspace]), false);
    assert.equal(await isInside(`${workspace}-sibling/file.txt`, [workspace]), false);
  });

  it('accepts a link from outside that points into the workspace, and any of several roots', async () => {
    assert.equal(await isInside(path.join(outside, 'link-in', 'a.ts'), [workspace]), true);
    assert.equal(await isInside(path.join(outside, 'secret.txt'), [workspace, outside]), true);
  });

  it('resolves symlinked ancestors of paths that do not exist yet', async () => {
    assert.equal(
      await resolveReal(path.join(workspace, 'link-out', 'a', 'b.txt')),
      path.join(await resolveReal(outside), 'a', 'b.txt'),
    );
  });

  it('refuses a dangling symlink inside the workspace whose target is outside', async () => {
    assert.equal(await isInside(path.join(workspace, 'dangling'), [workspace]), false);
    assert.equal(
      await resolveReal(path.join(workspace, 'dangling')),
      path.join(await resolveReal(outside), 'not-there.txt'),
    );
  });

  it('follows a chain of links to its last, dangling hop', async () => {
    assert.equal(await isInside(path.join(workspace, 'hop1'), [workspace]), false);
    assert.equal(
      await resolveReal(path.join(workspace, 'hop1')),
      path.join(await resolveReal(outside), 'missing-dir', 'x.txt'),
    );
  });

  it('applies .. after a link to the link target, not lexically', async () => {
    const viaLink = `${workspace}/src/deep-link/../escape.txt`;
    assert.equal(await resolveReal(viaLink), path.join(await resolveReal(outside), 'nested', 'escape.txt'));
    assert.equal(await isInside(viaLink, [workspace]), false);
  });

  it('treats a symlink loop as inside nothing', async () => {
    assert.equal(await isInside(path.join(workspace, 'loop-a', 'x.txt'), [workspace]), false);
  });

  it('climbs back out of a missing folder with .. and still follows links after it', async () => {
    assert.equal(await isInside(`${workspace}/missing/../link-out/secret.txt`, [workspace]), false);
    assert.equal(await isInside(`${workspace}/missing/../src/a.ts`, [workspace]), true);
  });

  it('opens a file inside for reading, and refuses one outside or through a dangling link', async () => {
    writeFileSync(path.join(workspace, 'src', 'inside.txt'), 'inside');
    const handle = await openInside(path.join(workspace, 'src', 'inside.txt'), [workspace]);
    assert.ok(handle);
    try {
      assert.equal(await handle.readFile('utf8'), 'inside');
    } finally {
      await handle.close();
    }
    assert.equal(await openInside(path.join(workspace, 'link-out', 'secret.txt'), [workspace]), undefined);
    assert.equal(await openInside(path.join(workspace, 'dangling'), [workspace]), undefined);
  });

  it('refuses a file whose final component became a symlink between the check and the open', async () => {
    const swapped = path.join(workspace, 'src', 'swapped.txt');
    writeFileSync(swapped, 'harmless');
    const real = await resolveReal(swapped);
    assert.equal(await isInside(real, [workspace]), true);
    // The race: checked as a regular file; by the open it is a link to a secret.
    rmSync(real);
    symlinkSync(path.join(outside, 'secret.txt'), real);
    await assert.rejects(openVerified(real, [workspace]), ConfinementRaceError);
  });

  it('refuses a file whose folder became a symlink to outside between the check and the open', async () => {
    const folder = path.join(workspace, 'src', 'moving');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'file.txt'), 'harmless');
    mkdirSync(path.join(outside, 'moving'));
    writeFileSync(path.join(outside, 'moving', 'file.txt'), 'secret');
    const real = await resolveReal(path.join(folder, 'file.txt'));
    rmSync(folder, { recursive: true });
    symlinkSync(path.join(outside, 'moving'), folder);
    await assert.rejects(openVerified(real, [workspace]), ConfinementRaceError);
  });
});

describe('isLexicallyWithin: under a folder by the names alone', () => {
  const root = path.join(path.sep, 'work', 'repo');

  it('takes the folder itself and what is below it', () => {
    assert.equal(isLexicallyWithin(root, root), true);
    assert.equal(isLexicallyWithin(path.join(root, 'src', 'a.ts'), root), true);
    // A name that starts with two dots is a child, not a hop out.
    assert.equal(isLexicallyWithin(path.join(root, '..hidden', 'a.ts'), root), true);
  });

  it('refuses the parent, a sibling with the same prefix and a `..` hop out', () => {
    assert.equal(isLexicallyWithin(path.dirname(root), root), false);
    assert.equal(isLexicallyWithin(`${root}-other${path.sep}a.ts`, root), false);
    assert.equal(isLexicallyWithin(`${root}${path.sep}..${path.sep}secret`, root), false);
  });
});
