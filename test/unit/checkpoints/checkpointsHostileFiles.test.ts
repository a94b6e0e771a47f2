import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileLooksBinary, readRegularFile } from '../../../src/features/checkpoints/core/fileContent';
import { ShadowGitCheckpointStore } from '../../../src/features/checkpoints/core/shadowGit';
import type { FileChangeStat } from '../../../src/features/checkpoints/core/types';
import { silentLogger } from '../../../src/core/ports';

function write(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

function summary(changes: readonly FileChangeStat[], root: string): string[] {
  return changes.map(
    (change) => `${change.kind} ${path.relative(root, change.path).split(path.sep).join('/')}`,
  );
}

function mkfifo(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
}

/**
 * FIFOs, sockets and links to them where git opens the folder's rule files: git opens a `.gitignore`
 * or `.gitattributes` without a timeout, and a FIFO there would hold every checkpoint until git's own
 * timeout. Each git command here may run 5 s at most: a hang fails the test quickly, not after 120 s.
 */
describe('checkpoints: FIFOs, sockets and devices named like git rule files', function () {
  this.timeout(60_000);
  const GIT_TIMEOUT_MS = 5000;
  let root: string;
  let workspace: string;
  let store: ShadowGitCheckpointStore | undefined;
  const servers: Server[] = [];

  async function openStore(): Promise<ShadowGitCheckpointStore> {
    store = await ShadowGitCheckpointStore.open({
      folders: [workspace],
      storageDir: path.join(root, 'storage'),
      logger: silentLogger,
      gitTimeoutMs: GIT_TIMEOUT_MS,
    });
    return store;
  }

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-hostile-files-'));
    workspace = path.join(root, 'workspace');
    mkdirSync(workspace);
  });

  afterEach(async () => {
    await store?.idle();
    store?.dispose();
    store = undefined;
    for (const server of servers.splice(0)) {
      server.close();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('leaves out a folder whose .gitignore or .gitattributes is a FIFO, a socket or a link to a FIFO, and says which', async () => {
    write(workspace, {
      'a.txt': 'a\n',
      'fifo/tracked.txt': 'one\n',
      'attrs/tracked.txt': 'one\n',
      'sock/tracked.txt': 'one\n',
      'linked/tracked.txt': 'one\n',
    });
    const s = await openStore();
    const before = await s.create();
    mkfifo(path.join(workspace, 'fifo', '.gitignore'));
    mkfifo(path.join(workspace, 'attrs', '.gitattributes'));
    mkfifo(path.join(root, 'elsewhere-fifo'));
    symlinkSync(path.join(root, 'elsewhere-fifo'), path.join(workspace, 'linked', '.gitignore'));
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(path.join(workspace, 'sock', '.gitignore'), resolve));
    write(workspace, {
      'a.txt': 'b\n',
      'fifo/tracked.txt': 'two\n',
      'fifo/new.txt': 'new\n',
      'attrs/tracked.txt': 'two\n',
      'sock/tracked.txt': 'two\n',
    });

    const after = await s.create();
    const changes = await s.changes(before, after);

    assert.deepEqual(summary(changes, workspace), ['modified a.txt']);
    assert.deepEqual(
      s.untrackedFolders().sort(),
      ['attrs', 'fifo', 'linked', 'sock'].map((dir) => path.join(workspace, dir)),
      'the card names each folder whose changes are not tracked',
    );
  });

  it('takes the folder back once its rule file is a file again, without calling its files created', async () => {
    write(workspace, { 'sub/kept.txt': 'kept\n' });
    mkfifo(path.join(workspace, 'sub', '.gitignore'));
    const s = await openStore();
    const before = await s.create();
    rmSync(path.join(workspace, 'sub', '.gitignore'));
    write(workspace, { 'sub/.gitignore': '*.log\n', 'sub/kept.txt': 'changed\n' });

    const changes = await s.changes(before);

    assert.deepEqual(s.untrackedFolders(), []);
    assert.deepEqual(
      summary(changes, workspace),
      [],
      'files of a folder left out before are not "created": Undo would delete what existed',
    );
  });

  it('refuses a checkpoint at once, with the reason, when the folder’s own .gitignore is a FIFO', async () => {
    write(workspace, { 'a.txt': 'a\n' });
    const s = await openStore();
    await s.create();
    mkfifo(path.join(workspace, '.gitignore'));
    const started = Date.now();

    await assert.rejects(s.create(), /\.gitignore is a FIFO/);

    assert.ok(Date.now() - started < GIT_TIMEOUT_MS, 'no git waited on the FIFO');
  });

  it('compares two checkpoints when a .gitattributes became a FIFO since (the diff reads no rule file)', async () => {
    write(workspace, { 'a.txt': 'a\n' });
    const s = await openStore();
    const first = await s.create();
    write(workspace, { 'a.txt': 'b\n' });
    const second = await s.create();
    mkfifo(path.join(workspace, '.gitattributes'));

    assert.deepEqual(summary(await s.changes(first, second), workspace), ['modified a.txt']);
  });

  it('our own reads never wait on a FIFO: they refuse it', async () => {
    const fifo = path.join(workspace, 'pipe');
    mkfifo(fifo);
    await assert.rejects(fileLooksBinary(fifo), /not a regular file/);
    await assert.rejects(readRegularFile(fifo, 1024), /not a regular file/);
  });
});
