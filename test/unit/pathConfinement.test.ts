import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isInside, resolveReal } from '../../src/core/pathConfinement';

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
});
