import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Disposable } from '../../../src/core/util/disposable';
import { findOnAbsolutePath } from '../../../src/core/connection/spawnProgram';
import { ChangeReview } from '../../../src/features/checkpoints/chat/changeReview';
import type { CheckpointWorkspace } from '../../../src/features/checkpoints/chat/checkpointWorkspace';
import { createCheckpointStore, type CheckpointStore } from '../../../src/features/checkpoints/core';
import {
  WorkspaceService,
  type StorePlan,
  type WorkspaceHost,
} from '../../../src/features/checkpoints/chat/workspaceService';
import { NodeWorkspaceChanges } from '../support/nodeWorkspaceChanges';
import { oneStore } from '../support/oneStore';
import { ChatHarness, testAgent, until } from '../support/chatHarness';

/** VS Code's side of the workspace, as a test drives it: trust, folders, storage, the cap. */
class TestHost implements WorkspaceHost {
  trust = true;
  open: string[] = [];
  candidates: string[] = [];
  capBytes = 2048 * 1024 * 1024;
  readonly informed: string[] = [];
  private readonly granted = new Set<() => void>();
  private readonly changed = new Set<() => void>();

  constructor(readonly home: string) {}

  trusted(): boolean {
    return this.trust;
  }
  onDidGrantTrust(listener: () => void): Disposable {
    this.granted.add(listener);
    return { dispose: () => this.granted.delete(listener) };
  }
  /** How often the service looked at the folders: once per look at the whole workspace. */
  looks = 0;
  folders(): readonly string[] {
    this.looks++;
    return this.open;
  }
  onDidChangeFolders(listener: () => void): Disposable {
    this.changed.add(listener);
    return { dispose: () => this.changed.delete(listener) };
  }
  inform(message: string): void {
    this.informed.push(message);
  }
  storageCandidates(): readonly string[] {
    return this.candidates;
  }
  maxStorageBytes(): number {
    return this.capBytes;
  }
  grantTrust(): void {
    this.trust = true;
    this.granted.forEach((listener) => listener());
  }
  setFolders(folders: string[]): void {
    this.open = folders;
    this.changed.forEach((listener) => listener());
  }
}

describe('workspace service: checkpoints only where and when they may be taken', () => {
  let root: string;
  let host: TestHost;
  let service: WorkspaceService<CheckpointStore>;
  let review: ChangeReview;
  let port: NodeWorkspaceChanges;
  /** Every store the service opened, with its plan. */
  let plans: StorePlan[];
  /** The wrapper around the real git (first on PATH) writes a line here for every run: whether git ran. */
  let gitLog: string;
  let now: number;
  let savedPath: string | undefined;

  function folder(name: string): string {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  beforeEach(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-workspace-')));
    const realGit = await findOnAbsolutePath('git', process.env);
    assert.ok(realGit, 'git on PATH');
    gitLog = path.join(root, 'git-runs.log');
    const wrapper = path.join(root, 'bin', 'git');
    fs.mkdirSync(path.dirname(wrapper));
    fs.writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${gitLog}'\nexec '${realGit}' "$@"\n`);
    fs.chmodSync(wrapper, 0o755);
    savedPath = process.env.PATH;
    process.env.PATH = [path.dirname(wrapper), savedPath].join(path.delimiter);
    host = new TestHost(folder('home'));
    host.open = [folder('home/project')];
    host.candidates = [path.join(root, 'storage', 'workspace'), path.join(root, 'storage', 'global')];
    plans = [];
    now = 0;
    service = new WorkspaceService(
      host,
      (plan) => {
        plans.push(plan);
        // git found on PATH as in use: the wrapper is first there.
        return createCheckpointStore({ ...plan, logger: console });
      },
      console,
      { storeSubdir: 'checkpoints', measureEveryMs: 1000, now: () => now },
    );
    port = new NodeWorkspaceChanges(host.open[0]!);
    review = new ChangeReview(service, port, console);
  });

  afterEach(async () => {
    process.env.PATH = savedPath;
    review.dispose();
    const store = plans.length > 0 ? await service.store().catch(() => undefined) : undefined;
    await (store as { idle?: () => Promise<void> } | undefined)?.idle?.();
    service.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function checkpointId(): Promise<string> {
    const result = await review.checkpoint();
    assert.ok('id' in result, JSON.stringify(result));
    return result.id;
  }

  async function changedFiles(id: string): Promise<string[]> {
    const files = await (await service.store()).changes(id);
    return files.map((file) => path.relative(root, file.path)).sort();
  }

  it('in Restricted Mode runs no git and opens no store; once trust is granted, checkpoints start', async () => {
    host.trust = false;
    review.warmUp();
    const result = await review.checkpoint();
    assert.deepEqual(result, {
      problem: 'No checkpoint for this turn: the workspace is not trusted (Restricted Mode)',
    });
    await assert.rejects(service.store(), /not trusted/);
    assert.equal(fs.existsSync(gitLog), false, 'git ran in Restricted Mode');
    assert.equal(plans.length, 0, 'a store was opened');
    assert.equal(fs.existsSync(path.join(root, 'storage')), false, 'checkpoint storage was created');

    host.grantTrust();
    // The chat's warm-up found nothing to do; it runs again now, without waiting for a turn.
    await until(() => fs.existsSync(path.join(root, 'storage', 'workspace', 'checkpoints')), 'the warm-up');
    await checkpointId();
    assert.match(fs.readFileSync(gitLog, 'utf8'), /--version/);
  });

  it('a folder added after the first checkpoint is checkpointed from the next turn on; a removed one is dropped', async () => {
    const project = host.open[0]!;
    fs.writeFileSync(path.join(project, 'a.txt'), 'a\n');
    const first = await checkpointId();
    const added = folder('other');
    fs.writeFileSync(path.join(added, 'old.txt'), 'was there\n');
    host.setFolders([project, added]);
    const second = await checkpointId();
    fs.writeFileSync(path.join(project, 'a.txt'), 'a2\n');
    fs.writeFileSync(path.join(added, 'old.txt'), 'changed\n');
    fs.writeFileSync(path.join(added, 'new.txt'), 'new\n');
    assert.deepEqual(await changedFiles(second), [
      path.join('home', 'project', 'a.txt'),
      path.join('other', 'new.txt'),
      path.join('other', 'old.txt'),
    ]);
    // The first checkpoint did not know the added folder: its list says nothing of it, never "created".
    assert.deepEqual(await changedFiles(first), [path.join('home', 'project', 'a.txt')]);
    // The original content of a file in the added folder is known from the second checkpoint on.
    assert.equal(
      Buffer.from((await review.read(second, path.join(added, 'old.txt')))!).toString(),
      'was there\n',
    );

    host.setFolders([added]);
    const third = await checkpointId();
    fs.writeFileSync(path.join(project, 'a.txt'), 'a3\n');
    fs.writeFileSync(path.join(added, 'new.txt'), 'newer\n');
    assert.deepEqual(await changedFiles(third), [path.join('other', 'new.txt')]);
    // Nothing is known any more of the removed folder: reading it is refused, not answered "did not exist".
    await assert.rejects(review.read(second, path.join(project, 'a.txt')), /not in a checkpointed/);
    assert.deepEqual(
      plans.map((plan) => plan.folders.map((f) => path.relative(root, f))),
      [[path.join('home', 'project')], [path.join('home', 'project'), 'other'], ['other']],
    );
  });

  it('never stores checkpoints inside a workspace folder: storage that lies inside one moves outside', async () => {
    // A home folder opened over Remote-SSH: VS Code's workspace storage is inside it.
    const remoteHome = folder('remote');
    host.open = [remoteHome];
    host.candidates = [
      path.join(remoteHome, '.vscode-server', 'data', 'User', 'workspaceStorage', 'abc'),
      path.join(root, 'storage', 'global'),
    ];
    fs.writeFileSync(path.join(remoteHome, 'notes.txt'), 'x\n');
    const id = await checkpointId();
    assert.equal(fs.existsSync(path.join(remoteHome, '.vscode-server')), false, 'storage inside the folder');
    const [plan] = plans;
    assert.ok(plan?.storageDir.startsWith(path.join(root, 'storage', 'global') + path.sep), plan?.storageDir);
    fs.writeFileSync(path.join(remoteHome, 'notes.txt'), 'y\n');
    // Only the user's change is listed, never the shadow repository's own files.
    assert.deepEqual(await changedFiles(id), [path.join('remote', 'notes.txt')]);
  });

  it('refuses the home folder and Desktop with a notice once; the other folders are still checkpointed', async () => {
    host.open = [host.home, folder('home/Desktop')];
    for (let i = 0; i < 3; i++) {
      const result = await review.checkpoint();
      assert.ok('problem' in result);
      assert.match(
        result.problem,
        /^No checkpoint for this turn: no folder here may be checkpointed \(.*home is your home folder; .*Desktop is your Desktop folder\)$/,
      );
    }
    assert.equal(plans.length, 0, 'a store was opened');
    assert.equal(fs.existsSync(gitLog), false, 'git ran for a refused folder');
    assert.equal(host.informed.length, 2, host.informed.join('\n'));
    assert.match(host.informed[0]!, /No checkpoints of .*home: it is your home folder/);

    const project = path.join(host.home, 'project');
    host.setFolders([host.home, project]);
    const id = await checkpointId();
    fs.writeFileSync(path.join(project, 'b.txt'), 'b\n');
    assert.deepEqual(await changedFiles(id), [path.join('home', 'project', 'b.txt')]);
    assert.deepEqual(
      plans.map((plan) => plan.folders),
      [[project]],
    );
    assert.equal(host.informed.length, 2, 'told again about the home folder');
  });

  it('stops taking checkpoints over the size cap, says why on the turn and once to the user, and resumes under it', async () => {
    // 3 MB that does not compress to below 1 MB.
    fs.writeFileSync(path.join(host.open[0]!, 'big.txt'), randomBytes(2_250_000).toString('base64'));
    const before = await checkpointId();
    host.capBytes = 1024 * 1024;
    now += 1000;
    for (let i = 0; i < 2; i++) {
      const result = await review.checkpoint();
      assert.deepEqual(result, {
        problem:
          'No checkpoint for this turn: the checkpoint storage is full (more than 1 MB, the setting acpAgents.checkpoints.maxStorageMB)',
      });
    }
    assert.equal(host.informed.filter((m) => /Checkpoints have stopped/.test(m)).length, 1);
    // Undo still works over the cap: what was recorded can be read.
    assert.equal(
      Buffer.from((await review.read(before, path.join(host.open[0]!, 'big.txt')))!).length,
      3_000_000,
    );
    host.capBytes = 2048 * 1024 * 1024;
    now += 1000;
    await checkpointId();
    assert.ok(fs.readdirSync(path.join(root, 'storage', 'workspace', 'checkpoints')).length > 0);
  });

  it('a checkpoint before a prompt looks at the workspace once (trust, folders, storage, the cap)', async () => {
    await checkpointId(); // the store opened
    host.looks = 0;
    await checkpointId();
    assert.equal(host.looks, 1, 'a Send waits for each look (links resolved, storage chosen)');
  });

  it('Stop while the storage is measured against its cap gives the checkpoint up at once, opening no store', async () => {
    let asked: AbortSignal | undefined;
    const stop = new AbortController();
    const measuring: CheckpointWorkspace = {
      ...oneStore(() => service.store()),
      checkpointStore: (stopped) => {
        asked = stopped;
        stop.abort(new Error('Stopped before the message was sent.')); // while it measures
        return new Promise<CheckpointStore>(() => undefined);
      },
    };
    const held = new ChangeReview(measuring, port, console);
    const result = held.checkpoint(stop.signal);
    assert.deepEqual(await result, {
      problem: 'No checkpoint for this turn: Stopped before the message was sent.',
    });
    held.dispose();
    assert.equal(asked?.aborted, true, 'the workspace was not told of the Stop');
    // Told of it once the storage is measured, the service opens no store for the checkpoint.
    await assert.rejects(service.checkpointStore(asked), /Stopped before the message was sent/);
    assert.equal(plans.length, 0, 'a store was opened');
    await service.checkpointStore();
    assert.equal(plans.length, 1, 'no store opened when not stopped');
  });

  it('a turn over the cap says on the turn why it has no checkpoint, the user is told once, the chat goes on', async () => {
    let chat: ChatHarness | undefined;
    try {
      chat = new ChatHarness({
        agents: [testAgent('a')],
        changes: (dir, storage) => {
          host.open = [dir];
          host.candidates = [storage];
          // Storage already over the cap: 2 MB stored, 1 MB allowed.
          fs.mkdirSync(path.join(storage, 'checkpoints'), { recursive: true });
          fs.writeFileSync(path.join(storage, 'checkpoints', 'filler'), Buffer.alloc(2 * 1024 * 1024));
          host.capBytes = 1024 * 1024;
          return new ChangeReview(service, new NodeWorkspaceChanges(dir), console);
        },
      });
      await chat.ready();
      await chat.send('own write a.txt x');
      await chat.send('own write b.txt y');
      const turns = () => chat!.controller.viewState().chat?.thread.turns ?? [];
      await until(() => turns().length === 2 && turns().every((t) => t.status === 'completed'), 'two turns');
      for (const turn of turns()) {
        assert.equal(turn.checkpointId, undefined);
        assert.match(
          turn.checkpointProblem ?? '',
          /^No checkpoint for this turn: the checkpoint storage is full/,
        );
      }
      assert.equal(
        fs.existsSync(path.join(chat.dir, 'a.txt')) && fs.existsSync(path.join(chat.dir, 'b.txt')),
        true,
      );
      assert.equal(host.informed.filter((m) => /Checkpoints have stopped/.test(m)).length, 1);
      assert.equal(plans.length, 0, 'a store was opened over the cap');
    } finally {
      await chat?.dispose();
    }
  });
});
