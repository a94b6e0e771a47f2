import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { originals } from '../../../src/features/checkpoints/chat/putBack';
import { turnChangesOf, UNSURE_BEFORE } from '../../../src/features/checkpoints/chat/cardUpdates';
import { ShadowGitCheckpointStore } from '../../../src/features/checkpoints/core/shadowGit';
import { silentLogger } from '../../../src/core/ports';
import { realGit } from './support/shadowStore';
import { useTempFolder } from '../../support/tempFolder';

/** Above git's 32 KiB small-file bound: git maps such a file, and a truncation under it is a SIGBUS. */
const BODY = 40_000;
/** One whole version as the writer writes it: its number at both ends, the body between. */
const WHOLE = new RegExp(`^v(\\d+):x{${BODY}}:v\\1\\n$`);

/**
 * A real process that rewrites `file` (truncate, then write) as fast as it can until killed, each
 * version whole only once written; it prints "ready" after its first write.
 */
function startWriter(file: string): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const body = 'x'.repeat(${BODY});
    for (let n = 1; ; n++) {
      fs.writeFileSync(${JSON.stringify(file)}, 'v' + n + ':' + body + ':v' + n + '\\n');
      if (n === 1) process.stdout.write('ready\\n');
    }`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
}

describe('checkpoints: a file rewritten while checkpoints read it', function () {
  this.timeout(120_000);
  let workspace: string;
  let writer: ChildProcess | undefined;
  let store: ShadowGitCheckpointStore | undefined;

  afterEach(async () => {
    writer?.kill('SIGKILL');
    writer = undefined;
    await store?.idle();
    store?.dispose();
    store = undefined;
  });
  const temp = useTempFolder('acp-rewrites-');
  beforeEach(() => {
    workspace = path.join(temp.path, 'workspace');
    mkdirSync(workspace);
  });

  it('stores only whole versions the writer wrote, or says it is unsure of the file — never empty or torn', async () => {
    const file = path.join(workspace, 'busy.txt');
    writeFileSync(file, `v0:${'x'.repeat(BODY)}:v0\n`);
    writeFileSync(path.join(workspace, 'calm.txt'), 'calm\n');
    store = await ShadowGitCheckpointStore.open({
      folders: [workspace],
      storageDir: path.join(temp.path, 'storage'),
      logger: silentLogger,
    });
    await store.create();
    writer = startWriter(file);
    await new Promise<void>((resolve) => writer!.stdout!.once('data', () => resolve()));

    const checkpoints: string[] = [];
    for (let i = 0; i < 12; i++) {
      checkpoints.push(await store.create());
    }
    writer.kill('SIGKILL');
    await new Promise((resolve) => writer!.once('exit', resolve));
    writeFileSync(path.join(workspace, 'calm.txt'), 'changed\n');
    const final = await store.create();

    let whole = 0;
    let unsure = 0;
    for (const checkpoint of checkpoints) {
      const bytes = await store.read(checkpoint, file);
      if (bytes === undefined) {
        // Not handed out: the checkpoint must say it is unsure of the file, never that it did not exist.
        const row = (await store.changes(checkpoint, final)).find((change) => change.path === file);
        assert.ok(
          row === undefined || row.unsure === true,
          `${file} at ${checkpoint}: ${JSON.stringify(row)}`,
        );
        unsure++;
      } else {
        assert.match(Buffer.from(bytes).toString('latin1'), WHOLE, 'a stored version is a whole one');
        whole++;
      }
    }
    assert.equal(whole + unsure, checkpoints.length);
    const settled = await store.read(final, file);
    // Killed mid-write, the writer may have left a torn file: once still, the disk's bytes are stored.
    assert.deepEqual(settled, new Uint8Array(readFileSync(file)), 'once still, the file is stored as it is');
    assert.deepEqual(
      (await store.changes(checkpoints[0]!, final))
        .map((change) => path.basename(change.path))
        .filter((n) => n === 'calm.txt'),
      ['calm.txt'],
      'the other files are checkpointed as usual',
    );
  });

  it('the card says so for an unsure file, and Undo leaves it', async () => {
    const file = {
      path: '/w/busy.txt',
      folder: '/w',
      kind: 'modified' as const,
      added: 1,
      removed: 1,
      binary: false,
    };
    const card = turnChangesOf([{ ...file, unsure: true }], undefined, {
      live: false,
      coverage: 'full',
      untracked: [],
      relativePath: (p) => path.basename(p),
    });
    assert.equal(card.files[0]?.beforeUnknown, true, 'no Undo button');
    assert.equal(card.files[0]?.problem, UNSURE_BEFORE);

    let read = 0;
    const fromCard = await originals(async () => {
      read++;
      return new Uint8Array();
    }, card.files);
    const fromStore = await originals(async () => new Uint8Array(), [{ ...file, unsure: true }]);

    for (const result of [fromCard, fromStore]) {
      assert.deepEqual(result.known, [], 'nothing is written back');
      assert.match(result.unknown[0]?.reason ?? '', /being written while the checkpoint read it/);
    }
    assert.equal(read, 0);
  });
});

describe('checkpoints: a git killed by a signal', function () {
  this.timeout(60_000);
  let store: ShadowGitCheckpointStore | undefined;

  afterEach(async () => {
    await store?.idle();
    store?.dispose();
    store = undefined;
  });
  const temp = useTempFolder('acp-git-signal-');
  beforeEach(() => {
    mkdirSync(path.join(temp.path, 'workspace'));
    writeFileSync(path.join(temp.path, 'workspace', 'a.txt'), 'a\n');
  });

  /** A git that kills itself with SIGBUS on `add` — the first `times` times — and is git otherwise. */
  /** A git that kills itself with SIGBUS, the first `times` runs whose arguments contain `trigger`. */
  function dyingGit(times: number, trigger = 'add'): { git: string; deaths: () => number } {
    const count = path.join(temp.path, 'deaths');
    const git = path.join(temp.path, 'git');
    writeFileSync(
      git,
      `#!/bin/sh
case " $* " in
  *' ${trigger} '*)
    if [ "$(wc -c < '${count}' 2>/dev/null || echo 0)" -lt ${times} ]; then
      printf x >> '${count}'
      kill -BUS $$
    fi;;
esac
exec '${realGit()}' "$@"
`,
      { mode: 0o755 },
    );
    return { git, deaths: () => (existsSync(count) ? readFileSync(count).length : 0) };
  }

  async function open(git: string): Promise<ShadowGitCheckpointStore> {
    store = await ShadowGitCheckpointStore.open({
      folders: [path.join(temp.path, 'workspace')],
      storageDir: path.join(temp.path, 'storage'),
      logger: silentLogger,
      git,
    });
    return store;
  }

  it('is run once more, and the checkpoint holds the folder', async () => {
    const { git, deaths } = dyingGit(1);
    const s = await open(git);
    const checkpoint = await s.create();
    assert.equal(deaths(), 1, 'the first add was killed');
    assert.deepEqual(
      await s.read(checkpoint, path.join(temp.path, 'workspace', 'a.txt')),
      new TextEncoder().encode('a\n'),
    );
  });

  it('a listing of changed files killed every time (a file truncated under it) lists every tracked file instead', async () => {
    const { git, deaths } = dyingGit(1_000, '-o -m');
    const s = await open(git);
    const first = await s.create();
    writeFileSync(path.join(temp.path, 'workspace', 'a.txt'), 'changed\n');
    writeFileSync(path.join(temp.path, 'workspace', 'new.txt'), 'new\n');
    const second = await s.create();
    assert.ok(deaths() >= 2, 'the listing that reads files was killed each time');
    assert.deepEqual(
      (await s.changes(first, second)).map((change) => [path.basename(change.path), change.kind]).sort(),
      [
        ['a.txt', 'modified'],
        ['new.txt', 'created'],
      ],
    );
    assert.deepEqual(
      await s.read(second, path.join(temp.path, 'workspace', 'a.txt')),
      new TextEncoder().encode('changed\n'),
    );
  });

  it('killed again, as a save in a loop can: the add is made again, and the checkpoint holds the folder', async () => {
    // Three in a row: more than the one try again every git command gets.
    const { git, deaths } = dyingGit(3);
    const s = await open(git);
    const checkpoint = await s.create();
    assert.equal(deaths(), 3);
    assert.deepEqual(
      await s.read(checkpoint, path.join(temp.path, 'workspace', 'a.txt')),
      new TextEncoder().encode('a\n'),
    );
  });

  it('killed every time: eight tries of the add at most, then the checkpoint fails with the signal named', async () => {
    const { git, deaths } = dyingGit(1_000);
    const s = await open(git);
    await assert.rejects(s.create(), /SIGBUS/);
    assert.equal(deaths(), 8);
  });
});
