import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import FakeTimers from '@sinonjs/fake-timers';
import { createCheckpointStore } from '../../../src/features/checkpoints/core';
import { CheckpointNotFoundError } from '../../../src/features/checkpoints/core/errors';
import { countLineChanges } from '../../../src/features/checkpoints/core/fileContent';
import { LimitedCheckpointStore } from '../../../src/features/checkpoints/core/limited';
import { folderKey } from '../../../src/features/checkpoints/core/shadowGit';
import type { CheckpointStore, FileChangeStat } from '../../../src/features/checkpoints/core/types';
import { silentLogger, type Logger } from '../../../src/core/ports';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));

function summary(changes: readonly FileChangeStat[], root: string): string[] {
  return changes.map(
    (change) =>
      `${change.kind} ${path.relative(root, change.path)} +${change.added} -${change.removed}${change.binary ? ' binary' : ''}`,
  );
}

describe('checkpoints: limited store (no git)', () => {
  let root: string;
  let workspace: string;
  let store: LimitedCheckpointStore;
  let storageDir: string;
  const open = (keepCheckpoints?: number) =>
    LimitedCheckpointStore.open({
      folders: [workspace],
      storageDir,
      limitation: 'no git here',
      logger: silentLogger,
      keepCheckpoints,
    });
  beforeEach(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-limited-'));
    workspace = path.join(root, 'workspace');
    storageDir = path.join(root, 'storage');
    mkdirSync(workspace);
    store = await open();
  });
  afterEach(async () => {
    await store.idle();
    store.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it("never takes the agent's word that a file on disk is new: unchanged since, its bytes are what it held", async () => {
    const file = path.join(workspace, '.env');
    writeFileSync(file, 'SECRET=1\n');
    const checkpoint = await store.create();

    await store.note(file, null); // a diff that claims the file did not exist

    assert.deepEqual(await store.changes(checkpoint), [], 'not created: it was there, and still is');
    assert.deepEqual(await store.read(checkpoint, file), bytes('SECRET=1\n'));
  });

  it("never takes the agent's word that a file it changed already was new: listed, its earlier bytes unknown", async () => {
    const file = path.join(workspace, '.env');
    writeFileSync(file, 'SECRET=1\n');
    const checkpoint = await store.create();
    writeFileSync(file, 'SECRET=2\n');

    await store.note(file, null);

    assert.deepEqual(
      (await store.changes(checkpoint)).map((row) => [row.kind, row.unrecorded]),
      [['modified', true]],
      'never "created": Undo would delete what was there',
    );
    assert.equal(await store.read(checkpoint, file), undefined);
  });

  it('a file named only once the agent changed it: listed as changed with its earlier bytes unknown, never omitted', async () => {
    const appended = path.join(workspace, 'race.txt');
    const deleted = path.join(workspace, 'gone.txt');
    const created = path.join(workspace, 'new.txt');
    writeFileSync(appended, 'before\n');
    writeFileSync(deleted, 'bye\n');
    const checkpoint = await store.create();
    // The agent writes first and names the files after (a shell command reported once it ran).
    appendFileSync(appended, 'more\n');
    rmSync(deleted);
    await store.note(appended);
    await store.note(deleted);
    // Named before it is written, in a folder that changed meanwhile: the agent's word that it is new.
    await store.note(created, null);
    writeFileSync(created, 'new\n');

    assert.deepEqual(
      (await store.changes(checkpoint)).map(
        (row) => `${row.kind} ${path.basename(row.path)} ${row.unrecorded ?? false}`,
      ),
      ['deleted gone.txt true', 'created new.txt false', 'modified race.txt true'],
    );
    assert.equal(await store.read(checkpoint, appended), undefined, 'never the new bytes as the old ones');
  });

  it('a file written in the same millisecond just before the checkpoint counts as it was then', async () => {
    // Its ctime has a fraction past the whole millisecond `Date.now()` gives the checkpoint: held at that
    // millisecond, the checkpoint's clock reads just "before" the write, as it does when both fall in one.
    const file = path.join(workspace, 'same.txt');
    writeFileSync(file, 'before\n');
    const written = statSync(file).ctimeMs;
    assert.notEqual(written, Math.floor(written), 'a whole-millisecond ctime would not show it');
    const clock = FakeTimers.install({ toFake: ['Date'], now: Math.floor(written) });
    let checkpoint: string;
    try {
      checkpoint = await store.create();
    } finally {
      clock.uninstall();
    }
    await store.note(file);
    writeFileSync(file, 'after\n');
    assert.deepEqual(summary(await store.changes(checkpoint), workspace), ['modified same.txt +1 -1']);
    assert.deepEqual(await store.read(checkpoint, file), bytes('before\n'));
  });

  it('a file changed right after the checkpoint, in its millisecond, is never taken for what it held', async () => {
    // The checkpoint's clock held at the file-system clock's millisecond now: the checkpoint returns only once
    // a write gets a later one, or a write right after it would look as old as the checkpoint.
    const file = path.join(workspace, 'next.txt');
    writeFileSync(file, 'before\n');
    const clock = FakeTimers.install({ toFake: ['Date'], now: Math.floor(statSync(file).ctimeMs) });
    let checkpoint: string;
    try {
      checkpoint = await store.create();
    } finally {
      clock.uninstall();
    }
    writeFileSync(file, 'after\n');
    await store.note(file);
    assert.equal(await store.read(checkpoint, file), undefined, 'never the new bytes as the old ones');
  });

  it('a file named before it changes is read then: its bytes, and a new file is new', async () => {
    const file = path.join(workspace, 'calm.txt');
    const created = path.join(workspace, 'fresh.txt');
    writeFileSync(file, 'before\n');
    const checkpoint = await store.create();
    await store.note(file);
    await store.note(created); // not there, in a folder unchanged since the checkpoint: it was not there
    writeFileSync(file, 'after\n');
    writeFileSync(created, 'fresh\n');

    assert.deepEqual(summary(await store.changes(checkpoint), workspace), [
      'modified calm.txt +1 -1',
      'created fresh.txt +1 -0',
    ]);
  });

  it("keeps the file's own line ends, whatever the agent's old text says", async () => {
    const notYet = path.join(workspace, 'not-yet.txt');
    const already = path.join(workspace, 'already.txt');
    writeFileSync(notYet, 'a\r\nb\r\n');
    writeFileSync(already, 'a\r\nb\r\n');
    const checkpoint = await store.create();
    // The agent announces with LF old text; it has rewritten one file already, keeping CRLF.
    writeFileSync(already, 'a\r\nB\r\n');
    await store.note(notYet, bytes('a\nb\n'));
    await store.note(already, bytes('a\nb\n'));

    assert.deepEqual(await store.read(checkpoint, notYet), bytes('a\r\nb\r\n'), 'the disk, not the claim');
    assert.deepEqual(await store.read(checkpoint, already), bytes('a\r\nb\r\n'), 'the claim, in CRLF');
  });

  it('knows what the turn left: the checkpoint after it holds the noted files as they were then', async () => {
    const file = path.join(workspace, 'a.txt');
    writeFileSync(file, 'before\n');
    const before = await store.create();
    await store.note(file);
    writeFileSync(file, 'after\n');
    const after = await store.create();

    assert.deepEqual(await store.read(after, file), bytes('after\n'), 'nothing was edited after the turn');
    writeFileSync(file, 'the user edits\n');
    assert.deepEqual(summary(await store.changes(before, after), workspace), ['modified a.txt +1 -1']);
    assert.deepEqual(await store.read(after, file), bytes('after\n'));
  });

  it('a FIFO at a noted path is not read (and not taken for "no file")', async () => {
    const fifo = path.join(workspace, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const checkpoint = await store.create();
    await store.note(fifo);
    assert.deepEqual(await store.changes(checkpoint), []);
  });

  it('lists and restores only the files it was told about', async () => {
    const edited = path.join(workspace, 'edited.txt');
    const created = path.join(workspace, 'created.txt');
    const deleted = path.join(workspace, 'deleted.bin');
    const unnoted = path.join(workspace, 'unnoted.txt');
    writeFileSync(edited, 'one\ntwo\n');
    writeFileSync(deleted, Buffer.from([1, 0, 2]));
    writeFileSync(unnoted, 'x\n');
    const checkpoint = await store.create();

    await store.note(edited); // read from disk
    await store.note(created, null); // the caller knows it does not exist yet
    await store.note(deleted, new Uint8Array([1, 0, 2]));
    writeFileSync(edited, 'one\nTWO\nthree\n');
    writeFileSync(created, 'new\n');
    rmSync(deleted);
    writeFileSync(unnoted, 'changed\n');

    assert.equal(store.coverage, 'limited');
    assert.equal(store.limitation, 'no git here');
    assert.deepEqual(summary(await store.changes(checkpoint), workspace), [
      'created created.txt +1 -0',
      'deleted deleted.bin +0 -0 binary',
      'modified edited.txt +2 -1',
    ]);
    assert.deepEqual(await store.read(checkpoint, edited), bytes('one\ntwo\n'));
    assert.deepEqual(await store.read(checkpoint, deleted), new Uint8Array([1, 0, 2]));
    assert.equal(await store.read(checkpoint, created), undefined);
    assert.equal(await store.read(checkpoint, unnoted), undefined, 'not known');
  });

  it('records a file once per checkpoint: the bytes it had when first noted after that checkpoint', async () => {
    const file = path.join(workspace, 'file.txt');
    writeFileSync(file, 'v1\n');
    const first = await store.create();
    await store.note(file);
    writeFileSync(file, 'v2\n');
    await store.note(file); // a second write in the same turn: the first record stays
    const second = await store.create();
    await store.note(file);
    writeFileSync(file, 'v3\n');

    assert.deepEqual(await store.read(first, file), bytes('v1\n'));
    assert.deepEqual(await store.read(second, file), bytes('v2\n'));
    assert.deepEqual(summary(await store.changes(first, second), workspace), ['modified file.txt +1 -1']);
    writeFileSync(file, 'v1\n');
    assert.deepEqual(await store.changes(first), [], 'back to the bytes of the first checkpoint');
  });

  it('ignores files outside the workspace folders and rejects unknown checkpoints', async () => {
    const checkpoint = await store.create();
    await store.note(path.join(root, 'outside.txt'), bytes('x'));
    assert.deepEqual(await store.changes(checkpoint), []);
    await assert.rejects(() => store.changes('mem1:unknown'), CheckpointNotFoundError);
    await assert.rejects(() => store.read('git1:abc', path.join(workspace, 'a')), CheckpointNotFoundError);
  });

  it('keeps what it recorded across a reopen (a window reload), skipping a torn last line', async () => {
    const file = path.join(workspace, 'file.txt');
    writeFileSync(file, 'before\n');
    const checkpoint = await store.create();
    await store.note(file);
    writeFileSync(file, 'after\n');
    await store.idle();
    store.dispose();
    appendFileSync(path.join(storageDir, 'checkpoints', 'limited', 'log.jsonl'), '{"t":"note","ids":["x"');

    store = await open();
    assert.deepEqual(await store.read(checkpoint, file), bytes('before\n'));
    assert.deepEqual(summary(await store.changes(checkpoint), workspace), ['modified file.txt +1 -1']);
    const next = await store.create();
    await store.note(file);
    store.dispose();
    store = await open();
    assert.deepEqual(await store.read(next, file), bytes('after\n'), 'a line appended after the torn one');
  });

  it('keeps only the newest checkpoints and frees the contents nothing needs any more', async () => {
    store.dispose();
    store = await open(2);
    const file = path.join(workspace, 'file.txt');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      writeFileSync(file, `version ${i}\n`);
      ids.push(await store.create());
      await store.note(file);
    }
    await assert.rejects(() => store.changes(ids[0]!), CheckpointNotFoundError);
    assert.deepEqual(await store.read(ids[5]!, file), bytes('version 5\n'));
    assert.deepEqual(await store.read(ids[6]!, file), bytes('version 6\n'));
    const blobs = readdirSync(path.join(storageDir, 'checkpoints', 'limited', 'blobs'));
    assert.ok(blobs.length <= 4, `${blobs.length} blobs kept for 2 checkpoints`);
  });
});

describe('checkpoints: createCheckpointStore', function () {
  this.timeout(30_000);
  let root: string;
  const opened: CheckpointStore[] = [];
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-factory-'));
    mkdirSync(path.join(root, 'workspace'));
  });
  afterEach(() => {
    opened.splice(0).forEach((store) => store.dispose());
    rmSync(root, { recursive: true, force: true });
  });

  function recordingLogger(): Logger & { warnings: string[] } {
    const warnings: string[] = [];
    return { ...silentLogger, warn: (message: string) => warnings.push(message), warnings };
  }

  it('uses shadow git repositories when git runs', async () => {
    const store = await createCheckpointStore({
      folders: [path.join(root, 'workspace')],
      storageDir: path.join(root, 'storage'),
      logger: silentLogger,
    });
    opened.push(store);
    assert.equal(store.coverage, 'full');
    assert.equal(store.limitation, undefined);
    const checkpoint = await store.create();
    writeFileSync(path.join(root, 'workspace', 'by-agent.txt'), 'written without telling anyone\n');
    assert.deepEqual(
      (await store.changes(checkpoint)).map((change) => change.kind),
      ['created'],
    );
  });

  it('falls back to the limited store, with a reason, when git is missing', async () => {
    const logger = recordingLogger();
    const missing = path.join(root, 'no-such-git');
    const store = await createCheckpointStore({
      folders: [path.join(root, 'workspace')],
      storageDir: path.join(root, 'storage'),
      logger,
      git: missing,
    });
    opened.push(store);
    assert.equal(store.coverage, 'limited');
    assert.match(store.limitation ?? '', /git was not found/);
    assert.ok(store.limitation?.includes(missing));
    assert.equal(logger.warnings.length, 1, 'said once, when the store is made');
    const checkpoint = await store.create();
    assert.deepEqual(await store.changes(checkpoint), []);
  });

  it('falls back when the storage directory cannot hold a repository', async () => {
    const workspace = path.join(root, 'workspace');
    const storageDir = path.join(root, 'storage');
    // A file where the folder's shadow repository would go.
    mkdirSync(path.join(storageDir, 'checkpoints'), { recursive: true });
    writeFileSync(path.join(storageDir, 'checkpoints', folderKey(workspace)), '');
    const store = await createCheckpointStore({ folders: [workspace], storageDir, logger: silentLogger });
    opened.push(store);
    assert.equal(store.coverage, 'limited');
    assert.match(store.limitation ?? '', /could not be set up/);
    const checkpoint = await store.create();
    await store.note(path.join(workspace, 'noted.txt'), null);
    writeFileSync(path.join(workspace, 'noted.txt'), 'x\n');
    assert.deepEqual(
      (await store.changes(checkpoint)).map((change) => change.kind),
      ['created'],
    );
  });
});

describe('checkpoints: line counts without git', () => {
  const count = (before: string | undefined, after: string | undefined) =>
    countLineChanges(
      before === undefined ? undefined : bytes(before),
      after === undefined ? undefined : bytes(after),
    );

  it('counts like a diff for edits, insertions and deletions', () => {
    assert.deepEqual(count('a\nb\nc\n', 'a\nB\nc\n'), { added: 1, removed: 1 });
    assert.deepEqual(count('a\nb\n', 'a\nx\ny\nb\n'), { added: 2, removed: 0 });
    assert.deepEqual(count('a\nb\nc\n', 'c\n'), { added: 0, removed: 2 });
    assert.deepEqual(count(undefined, 'one\ntwo'), { added: 2, removed: 0 });
    assert.deepEqual(count('one\n', undefined), { added: 0, removed: 1 });
  });

  it('counts moved lines as a diff does (one removed, one added), not as unchanged', () => {
    assert.deepEqual(count('a\nb\nc\n', 'c\na\nb\n'), { added: 1, removed: 1 });
    assert.deepEqual(count('x\ny\nx\n', 'y\nx\nx\n'), { added: 1, removed: 1 });
  });

  it('counts a file rewritten past the edit bound as every line removed and added', () => {
    const lines = (prefix: string) => Array.from({ length: 6_000 }, (_, i) => `${prefix}${i}\n`).join('');
    assert.deepEqual(count(lines('old'), lines('new')), { added: 6_000, removed: 6_000 });
    assert.deepEqual(count(`${lines('same')}tail`, `${lines('same')}tail\nmore`), { added: 2, removed: 1 });
  });

  it('counts a newline added at the end as a changed last line, as git does', () => {
    assert.deepEqual(count('a\nb', 'a\nb\n'), { added: 1, removed: 1 });
    assert.deepEqual(count('a\r\nb\r\n', 'a\nb\n'), { added: 2, removed: 2 });
  });
});
