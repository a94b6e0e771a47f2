import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { folderKey } from '../../../src/features/checkpoints/core/shadowGit';
import { silentLogger } from '../../../src/core/ports';
import { useShadowStore, write } from './support/shadowStore';

/** Enough distinct files that their blobs pass a `gc.auto` of 1 (more than one loose object in objects/17). */
function manyFiles(count: number, tag: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`pkg${i % 20}/file${i}.txt`] = `${tag} ${i}\n`;
  }
  return files;
}

/**
 * A `git` that holds the first `git gc` at a gate: it writes its pid to the `started` FIFO (read by the
 * test), waits for a line on the `release` FIFO, then becomes the real git. Every other command runs at once.
 */
function gatedGit(root: string): { git: string; started: string; release: string } {
  const gate = path.join(root, 'gate');
  fs.mkdirSync(gate);
  const started = path.join(gate, 'started');
  const release = path.join(gate, 'release');
  execFileSync('mkfifo', [started, release]);
  const git = path.join(root, 'gated-git');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(
    git,
    [
      '#!/bin/sh',
      `case " $* " in *" gc "*) if mkdir "${gate}/once" 2>/dev/null; then`,
      `  echo $$ > "${started}"; read line < "${release}"`,
      'fi ;; esac',
      `exec "${realGit}" "$@"`,
      '',
    ].join('\n'),
  );
  fs.chmodSync(git, 0o755);
  return { git, started, release };
}

/** The pid the gated gc writes once it has started (waits for it, no polling). */
function gcStarted(fifo: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    fs.createReadStream(fifo, 'utf8')
      .on('data', (chunk) => (text += String(chunk)))
      .on('end', () => resolve(Number(text.trim())))
      .on('error', reject);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function shadowGit(gitDir: string, ...args: string[]): string {
  const input = args.at(-1)?.endsWith('\n') === true ? args.pop() : undefined;
  return execFileSync('git', args, {
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', HOME: path.dirname(gitDir) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function hasObject(gitDir: string, id: string): boolean {
  try {
    shadowGit(gitDir, 'cat-file', '-e', id);
    return true;
  } catch {
    return false;
  }
}

const packs = (gitDir: string): string[] =>
  fs.readdirSync(path.join(gitDir, 'objects', 'pack')).filter((name) => name.endsWith('.pack'));

describe('checkpoints: packing the shadow repository in the background', function () {
  // Only on POSIX: the gate is a shell script with FIFOs.
  if (process.platform === 'win32') {
    return;
  }
  const fixture = useShadowStore();
  const gitDir = (): string => path.join(fixture.storageDir, 'checkpoints', folderKey(fixture.workspace));

  it('takes checkpoints while a pack runs, and every checkpoint taken during it is intact', async () => {
    const { git, started, release } = gatedGit(fixture.root);
    const warnings: string[] = [];
    write(fixture.workspace, manyFiles(1000, 'first'));
    const startedPid = gcStarted(started);
    const store = await fixture.openStore({
      git,
      packLooseObjects: 1,
      logger: { ...silentLogger, warn: (message) => warnings.push(message) },
    });
    const gcPid = await startedPid; // the pack the store starts on opening, held at the gate

    // The large first checkpoint does not wait for the pack: it completes while the gc is held.
    const first = await store.create();
    assert.equal(alive(gcPid), true, 'the gc is still running');
    assert.deepEqual(packs(gitDir()), [], 'nothing packed yet');

    // Released: git packs the first checkpoint's loose objects while more checkpoints are taken.
    await writeFile(release, 'go\n');
    let packingDone = false;
    const packing = store.idle().then(() => (packingDone = true));
    const during: { id: string; content: string }[] = [];
    for (let round = 0; !packingDone || round < 2; round++) {
      const content = `round ${round}\n`;
      write(fixture.workspace, { 'pkg0/file0.txt': content, [`new/round${round}.txt`]: content });
      during.push({ id: await store.create(), content });
    }
    await packing;

    assert.ok(packs(gitDir()).length > 0, 'the first checkpoint was packed');
    assert.equal(shadowGit(gitDir(), 'fsck', '--full', '--no-dangling').trim(), '');
    for (const [round, { id, content }] of during.entries()) {
      const read = await store.read(id, path.join(fixture.workspace, 'pkg0', 'file0.txt'));
      assert.equal(Buffer.from(read ?? []).toString(), content);
      const added = await store.read(id, path.join(fixture.workspace, 'new', `round${round}.txt`));
      assert.equal(Buffer.from(added ?? []).toString(), content);
    }
    const unchanged = await store.read(first, path.join(fixture.workspace, 'pkg19', 'file999.txt'));
    assert.equal(Buffer.from(unchanged ?? []).toString(), 'first 999\n');
    assert.deepEqual(warnings, []);
  });

  it('stops a running pack when the store is disposed, without a warning', async () => {
    const { git, started } = gatedGit(fixture.root);
    const warnings: string[] = [];
    write(fixture.workspace, { 'a.txt': 'a\n' });
    const startedPid = gcStarted(started);
    const store = await fixture.openStore({
      git,
      logger: { ...silentLogger, warn: (message) => warnings.push(message) },
    });
    const gcPid = await startedPid;
    assert.equal(alive(gcPid), true);

    store.dispose();
    await store.idle(); // resolves once the killed gc is gone
    assert.equal(alive(gcPid), false, 'the gc was killed');
    assert.deepEqual(warnings, []);
  });

  it("leaves the pack to another window's gc holding git's gc.pid lock", async () => {
    write(fixture.workspace, manyFiles(1000, 'locked'));
    const store = await fixture.openStore({ packLooseObjects: 1 });
    await store.idle();
    // Another window's gc, as git records it: a live process on this host.
    fs.writeFileSync(path.join(gitDir(), 'gc.pid'), `${process.pid} ${os.hostname()}`);
    await store.create();
    await store.idle();
    assert.deepEqual(packs(gitDir()), [], 'not packed while the lock is held');

    const again = await fixture.openStore({ packLooseObjects: 1 });
    await again.idle();
    assert.deepEqual(packs(gitDir()), [], 'a second window leaves it too');
    again.dispose();
    store.dispose();

    fs.rmSync(path.join(gitDir(), 'gc.pid'));
    const unlocked = await fixture.openStore({ packLooseObjects: 1 });
    await unlocked.idle();
    assert.ok(packs(gitDir()).length > 0, 'packed once the lock is gone');
    assert.equal(shadowGit(gitDir(), 'fsck', '--full', '--no-dangling').trim(), '');
  });

  it('collects old unreachable objects only once checkpoints were dropped, never what a checkpoint needs', async () => {
    write(fixture.workspace, manyFiles(1000, 'first'));
    const store = await fixture.openStore({ packLooseObjects: 1, keepCheckpoints: 1 });
    await store.idle();
    // An object nothing refers to, written three weeks ago (as a dropped checkpoint's would be).
    const stale = shadowGit(gitDir(), 'hash-object', '-w', '--stdin', '--path=x', 'stale\n').trim();
    const loose = path.join(gitDir(), 'objects', stale.slice(0, 2), stale.slice(2));
    const threeWeeksAgo = new Date(Date.now() - 21 * 24 * 3600 * 1000);
    fs.utimesSync(loose, threeWeeksAgo, threeWeeksAgo);
    const first = await store.create();
    await store.idle();
    write(fixture.workspace, { 'pkg0/file0.txt': 'changed\n' });
    const kept = await store.create();
    await store.idle();
    assert.ok(packs(gitDir()).length > 0, 'packed');
    assert.equal(hasObject(gitDir(), stale), true, 'packing alone keeps every object');
    store.dispose();

    const reopened = await fixture.openStore({ packLooseObjects: 1, keepCheckpoints: 1 });
    write(fixture.workspace, manyFiles(1000, 'second'));
    const second = await reopened.create(); // the store dropped the first checkpoint's ref on opening
    await reopened.idle();
    assert.equal(hasObject(gitDir(), stale), false, 'collected once refs were dropped');
    assert.equal(shadowGit(gitDir(), 'fsck', '--full', '--no-dangling').trim(), '');
    const read = await reopened.read(second, path.join(fixture.workspace, 'pkg19', 'file999.txt'));
    assert.equal(Buffer.from(read ?? []).toString(), 'second 999\n');
    assert.equal(
      Buffer.from(
        (await reopened.read(kept, path.join(fixture.workspace, 'pkg0', 'file0.txt'))) ?? [],
      ).toString(),
      'changed\n',
    );
    // The dropped checkpoint's objects are unreachable but not two weeks old: kept.
    const firstCommit = first.split('.')[1] ?? '';
    const refs = shadowGit(gitDir(), 'for-each-ref', '--format=%(objectname)', 'refs/checkpoints/');
    assert.deepEqual(refs.trim().split('\n').sort(), [kept.split('.')[1], second.split('.')[1]].sort());
    assert.equal(hasObject(gitDir(), firstCommit), true);
  });
});
