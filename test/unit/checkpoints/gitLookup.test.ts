import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findOnAbsolutePath } from '../../../src/core/connection/spawnProgram';

describe('checkpoints: git is found as an absolute path on PATH, never in the working folder', () => {
  let root: string;
  const cwd = process.cwd();

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-gitlookup-'));
  });

  afterEach(() => {
    process.chdir(cwd);
    rmSync(root, { recursive: true, force: true });
  });

  function fakeGit(folder: string): string {
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, process.platform === 'win32' ? 'git.exe' : 'git');
    writeFileSync(file, '#!/bin/sh\necho planted\n');
    chmodSync(file, 0o755);
    return file;
  }

  it('skips `.` and relative PATH entries (a git committed to the workspace) and takes the absolute one', async () => {
    const workspace = path.join(root, 'workspace');
    fakeGit(workspace);
    fakeGit(path.join(workspace, 'bin'));
    const real = fakeGit(path.join(root, 'usr', 'bin'));
    process.chdir(workspace);
    const PATH = ['.', 'bin', '', path.join(root, 'usr', 'bin')].join(path.delimiter);
    assert.equal(await findOnAbsolutePath('git', { PATH }), real);
  });

  it('finds nothing when PATH has no absolute folder with git (the store is then limited)', async () => {
    const workspace = path.join(root, 'workspace');
    fakeGit(workspace);
    process.chdir(workspace);
    assert.equal(await findOnAbsolutePath('git', { PATH: ['.', 'bin'].join(path.delimiter) }), undefined);
    assert.equal(await findOnAbsolutePath('git', { PATH: path.join(root, 'empty') }), undefined);
  });
});
