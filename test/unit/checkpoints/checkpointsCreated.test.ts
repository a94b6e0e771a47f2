import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  ShadowGitCheckpointStore,
  type ShadowGitStoreOptions,
} from '../../../src/features/checkpoints/core/shadowGit';
import { HELD_SAVE_MS } from '../../../src/features/checkpoints/core/heldSave';
import type { Clock } from '../../../src/core/util/clock';
import type { AnswerTimer } from '../../../src/features/checkpoints/core/stampTaker';
import type { FileChangeStat } from '../../../src/features/checkpoints/core/types';
import { silentLogger } from '../../../src/core/ports';
import { loggingGit, realGit } from './support/shadowStore';
import { useTempFolder } from '../../support/tempFolder';

/** Above git's small-file bound: git maps it, so a save under it is seen half way. */
const BODY = 40_000;

/**
 * A real process that saves `file` as editors and tools do, as fast as it can until killed, turn by turn:
 * truncate and write, delete and write anew, write aside and rename over. Prints "ready" once started.
 */
function startSaver(file: string): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const file = ${JSON.stringify(file)};
    const body = 'x'.repeat(${BODY});
    for (let n = 1; ; n++) {
      const text = 'v' + n + ':' + body + '\\n';
      if (n % 3 === 0) {
        fs.writeFileSync(file, text);
      } else if (n % 3 === 1) {
        fs.rmSync(file, { force: true });
        fs.writeFileSync(file, text);
      } else {
        fs.writeFileSync(file + '.tmp', text);
        fs.renameSync(file + '.tmp', file);
      }
      if (n === 1) process.stdout.write('ready\\n');
    }`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
}

/** What the card would call `rel`: its kind, and whether it is known to be new. */
function verdict(changes: readonly FileChangeStat[], file: string): string {
  const row = changes.find((change) => change.path === file);
  if (row === undefined) {
    return 'unlisted';
  }
  const flags = [
    row.beforeUnknown ? ' (may have existed)' : '',
    row.unsure ? ' (unsure)' : '',
    row.unrecorded ? ' (unrecorded)' : '',
  ];
  return `${row.kind}${flags.join('')}`;
}

/**
 * A file is "created" only where the checkpoint before positively saw it absent: one that existed but was
 * not recorded — being saved while the first checkpoint read it, or unreadable to git — is never listed
 * as created (Undo would delete it).
 */
describe('checkpoints: a file that existed is never "created"', function () {
  this.timeout(300_000);
  let workspace: string;
  let saver: ChildProcess | undefined;
  const stores: ShadowGitCheckpointStore[] = [];

  afterEach(async () => {
    saver?.kill('SIGKILL');
    saver = undefined;
    for (const store of stores.splice(0)) {
      await store.idle();
      store.dispose();
    }
  });
  const temp = useTempFolder('acp-created-');
  beforeEach(() => {
    workspace = path.join(temp.path, 'workspace');
    mkdirSync(workspace);
  });

  async function open(
    storage: string,
    git?: string,
    clocks: Pick<ShadowGitStoreOptions, 'now' | 'clock' | 'stampAnswerTimer'> = {},
  ): Promise<ShadowGitCheckpointStore> {
    const store = await ShadowGitCheckpointStore.open({
      folders: [workspace],
      storageDir: path.join(temp.path, storage),
      logger: silentLogger,
      ...(git === undefined ? {} : { git }),
      ...clocks,
    });
    stores.push(store);
    return store;
  }

  it('saved by a real process, in every way, while the first checkpoint reads it: modified or unsure, never created', async () => {
    const file = path.join(workspace, 'busy.txt');
    writeFileSync(file, `v0:${'x'.repeat(BODY)}\n`);
    for (let i = 0; i < 100; i++) {
      writeFileSync(path.join(workspace, `calm-${i}.txt`), `calm ${i}\n`);
    }
    saver = startSaver(file);
    await new Promise<void>((resolve) => saver!.stdout!.once('data', () => resolve()));
    const seen = new Map<string, number>();
    for (let run = 0; run < 16; run++) {
      // A first checkpoint each time: a new shadow repository, every file read.
      const store = await open(`storage-${run}`);
      // Made every time: a file gone under git add (a save's first half) is left out of that add only.
      const first = await store.create();
      const stopped = saver;
      stopped.kill('SIGSTOP');
      const final = await store.create();
      const said = verdict(await store.changes(first, final), file);
      // What the runs said (the race decides): e.g. unlisted, modified, modified (unsure).
      seen.set(said, (seen.get(said) ?? 0) + 1);
      const runs = JSON.stringify([...seen]);
      assert.notEqual(said, 'created', `run ${run}: ${file} existed before the turn (${runs})`);
      stopped.kill('SIGCONT');
    }
  });

  /** A git whose first `add` cannot read `rel` (as a short read under a save makes it say). */
  function gitUnableToReadOnce(rel: string): string {
    const failed = path.join(temp.path, 'failed-once');
    const git = path.join(temp.path, 'git');
    writeFileSync(
      git,
      `#!/bin/sh
case " $* " in
  *' add '*)
    if [ ! -e '${failed}' ]; then
      : > '${failed}'
      { cat; printf ':(exclude,literal)${rel}\\000'; } | '${realGit()}' "$@"
      echo "error: short read while indexing ${rel}" >&2
      echo "error: ${rel}: failed to insert into database" >&2
      exit 1
    fi;;
esac
exec '${realGit()}' "$@"
`,
      { mode: 0o755 },
    );
    return git;
  }

  it('unreadable to git at the first checkpoint (its add fails for that file): modified and unrecorded, never created', async () => {
    const file = path.join(workspace, 'flaky.txt');
    writeFileSync(file, 'existed\n');
    writeFileSync(path.join(workspace, 'other.txt'), 'other\n');
    const store = await open('storage', gitUnableToReadOnce('flaky.txt'));
    const first = await store.create();
    assert.equal(await store.read(first, file), undefined, 'not recorded at the first checkpoint');
    writeFileSync(file, 'changed by the turn\n');
    const final = await store.create();
    assert.equal(verdict(await store.changes(first, final), file), 'modified (unrecorded)');
    assert.deepEqual(await store.read(final, file), new Uint8Array(readFileSync(file)));
  });

  /**
   * A writer that deleted `file` to write it anew, held off the CPU until the store waits (or, when it
   * never does, until the checkpoint is taken): the clock's wait is when it goes on.
   */
  function heldWriter(file: string): { clock: Clock; waits: number[]; goOn(): void } {
    const waits: number[] = [];
    let done = false;
    const goOn = () => {
      if (!done) {
        done = true;
        writeFileSync(file, 'written anew\n');
      }
    };
    const clock: Clock = {
      after(ms, callback) {
        waits.push(ms);
        goOn();
        callback();
        return { dispose: () => undefined };
      },
    };
    return { clock, waits, goOn };
  }

  it('deleted by a save held half way just before the first checkpoint, written anew while it waits: never created', async () => {
    const file = path.join(workspace, 'saved.txt');
    writeFileSync(file, 'existed\n');
    writeFileSync(path.join(workspace, 'other.txt'), 'other\n');
    const writer = heldWriter(file);
    const store = await open('storage', undefined, { clock: writer.clock });
    rmSync(file); // the save's first half: the folder has just changed
    const first = await store.create();
    const waited = [...writer.waits];
    writer.goOn();
    const final = await store.create();
    assert.equal(verdict(await store.changes(first, final), file), 'modified (unrecorded)');
    assert.equal(waited.length, 1, 'the first checkpoint waited once for the folder to stay quiet');
    assert.ok(waited[0]! > 0 && waited[0]! <= HELD_SAVE_MS, String(waited));
  });

  it('deleted by a save held half way as git fails to read another file, written anew while it waits: never created', async () => {
    const file = path.join(workspace, 'saved.txt');
    writeFileSync(file, 'existed\n');
    writeFileSync(path.join(workspace, 'flaky.txt'), 'existed\n');
    const writer = heldWriter(file);
    const store = await open('storage', gitUnableToReadOnce('flaky.txt'), { clock: writer.clock });
    rmSync(file); // the save's first half: the folder has just changed
    const first = await store.create();
    const waited = writer.waits.length;
    writer.goOn(); // (when the checkpoint did not wait)
    const final = await store.create();
    assert.equal(verdict(await store.changes(first, final), file), 'modified (unrecorded)');
    assert.equal(waited, 1, 'the checkpoint waited for the folder to stay quiet, though git failed');
  });

  it('no stamp could be taken at the first checkpoint (a stat that hangs): no file is known absent then, none is created', async () => {
    writeFileSync(path.join(workspace, 'other.txt'), 'other\n');
    // Every answer of the stamps' worker comes too late, as from a mount that does not answer.
    const late: AnswerTimer = (expire) => {
      queueMicrotask(expire);
      return { cancel: () => undefined };
    };
    const store = await open('storage', undefined, { stampAnswerTimer: late });
    const first = await store.create();
    const file = path.join(workspace, 'new.txt');
    writeFileSync(file, 'new\n');
    const final = await store.create();
    // Undo leaves it: the checkpoint could not see whether a save had it half way.
    assert.equal(verdict(await store.changes(first, final), file), 'modified (unrecorded)');
  });

  it('a folder whose entries last changed longer ago than a held save is not waited for: a new file is created', async () => {
    writeFileSync(path.join(workspace, 'other.txt'), 'other\n');
    const file = path.join(workspace, 'new.txt');
    const writer = heldWriter(path.join(workspace, 'unused.txt'));
    // The folder changed just now, but the clock says it was longer ago than a held save lasts.
    const later = () => Date.now() + 2 * HELD_SAVE_MS;
    const store = await open('storage', undefined, { clock: writer.clock, now: later });
    const first = await store.create();
    writeFileSync(file, 'new\n');
    const final = await store.create();
    assert.equal(verdict(await store.changes(first, final), file), 'created');
    assert.deepEqual(writer.waits, []);
  });

  /** A git that deletes `file` as the first checkpoint lists the folder's files (after it stamped the folders). */
  function gitRemovingWhileListing(file: string): string {
    const done = path.join(temp.path, 'removed-once');
    const removeOnce = `case " $* " in *' ls-files '*' -m '*) [ -e '${done}' ] || { : > '${done}'; rm -f '${file}'; };; esac`;
    return loggingGit(temp.path, removeOnce).git;
  }

  it('a folder whose entries changed while the checkpoint read it, and not since: a file written there later is created', async () => {
    const sub = path.join(workspace, 'sub');
    mkdirSync(sub);
    const gone = path.join(sub, 'gone.txt');
    writeFileSync(gone, 'deleted while the checkpoint reads\n');
    writeFileSync(path.join(workspace, 'other.txt'), 'other\n');
    const store = await open('storage', gitRemovingWhileListing(gone));
    const first = await store.create();
    assert.equal(existsSync(gone), false, 'deleted as the checkpoint listed the folder');
    const file = path.join(sub, 'new.txt');
    writeFileSync(file, 'new\n');
    const final = await store.create();
    const changes = await store.changes(first, final);
    // Undo deletes it: it was not there when the prompt went, and nothing was being saved there then.
    assert.equal(verdict(changes, file), 'created');
    assert.equal(verdict(changes, gone), 'unlisted');
  });

  it('deleted by a save held half way as the checkpoint read its folder, written anew while it waits: never created', async () => {
    const sub = path.join(workspace, 'sub');
    mkdirSync(sub);
    const file = path.join(sub, 'saved.txt');
    writeFileSync(file, 'existed\n');
    const writer = heldWriter(file);
    const store = await open('storage', gitRemovingWhileListing(file), { clock: writer.clock });
    const first = await store.create();
    const waited = writer.waits.length;
    writer.goOn(); // (when the checkpoint did not wait)
    const final = await store.create();
    assert.equal(verdict(await store.changes(first, final), file), 'modified (unrecorded)');
    assert.ok(waited >= 1, 'the checkpoint waited for the folder to stay quiet');
  });

  it('a folder changed "in the future" (the clock set back since) is waited for no longer than a held save', async () => {
    writeFileSync(path.join(workspace, 'other.txt'), 'other\n');
    const writer = heldWriter(path.join(workspace, 'unused.txt'));
    const earlier = () => Date.now() - 60_000;
    const store = await open('storage', undefined, { clock: writer.clock, now: earlier });
    await store.create();
    assert.ok(writer.waits.length > 0, 'the folder had just changed: it was waited for');
    assert.ok(
      writer.waits.every((ms) => ms <= HELD_SAVE_MS),
      `waited ${writer.waits.join(', ')} ms`,
    );
  });
});
