import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { addToIndex } from '../../../src/features/checkpoints/core/gitAdd';
import {
  GitCommandError,
  type GitResult,
  type GitRunOptions,
} from '../../../src/features/checkpoints/core/gitRunner';
import { ShadowGitCheckpointStore } from '../../../src/features/checkpoints/core/shadowGit';
import { toLiteralPathspec } from '../../../src/features/checkpoints/core/pathspecs';
import { silentLogger } from '../../../src/core/ports';
import { loggingGit } from './support/shadowStore';
import { useTempFolder } from '../../support/tempFolder';

/** What git says when a file it matched is gone by the time it stats it (git's own words, LC_ALL=C). */
const goneUnder = (rel: string) => `fatal: unable to stat '${rel}': No such file or directory\n`;

const ok: GitResult = { exitCode: 0, stdout: Buffer.alloc(0), stderr: '' };

/**
 * A save that deletes a file and writes it anew, caught by `git add` between its look at the folder and its
 * stat of the file, makes git fail the whole command. The checkpoint is still made: the file is left out
 * of that add (staging watches it, and stages it again by name).
 */
describe('checkpoints: a file gone under git add', function () {
  this.timeout(30_000);
  const temp = useTempFolder('acp-git-add-');

  it('a named file gone as git stats it: the checkpoint is made without it, the other files in it', async () => {
    const workspace = path.join(temp.path, 'workspace');
    const busy = path.join(workspace, 'busy.txt');
    mkdirSync(workspace);
    writeFileSync(busy, 'existed\n');
    writeFileSync(path.join(workspace, 'other.txt'), 'other\n');
    // git's race, on demand: the first two adds find busy.txt gone (a save's first half) and fail as git
    // does — twice, so that the snapshot's one retry from scratch meets it again, as a saver in a loop does.
    const count = path.join(temp.path, 'adds-failed');
    const { git } = loggingGit(
      temp.path,
      `case " $* " in *' add '*)
        n=$(cat '${count}' 2>/dev/null || echo 0)
        if [ "$n" -lt 2 ]; then
          echo $((n + 1)) > '${count}'; rm -f '${busy}'
          printf "${goneUnder('busy.txt').trim()}\\n" >&2; exit 128
        fi;;
      esac`,
    );
    const store = await ShadowGitCheckpointStore.open({
      folders: [workspace],
      storageDir: path.join(temp.path, 'storage'),
      logger: silentLogger,
      git,
    });
    try {
      const checkpoint = await store.create();
      assert.deepEqual(
        Buffer.from((await store.read(checkpoint, path.join(workspace, 'other.txt')))!).toString(),
        'other\n',
      );
      assert.equal(await store.read(checkpoint, busy), undefined, 'gone when the checkpoint was taken');
    } finally {
      await store.idle();
      store.dispose();
    }
  });

  /**
   * A git that fails its first `failures` adds as `stderr` says (or is killed by `signal`), then stages; the
   * pathspecs of each add.
   */
  function gitFailing(failures: number, stderr: string, signal: NodeJS.Signals | null = null) {
    const calls: string[][] = [];
    const run = async (args: readonly string[], options?: GitRunOptions): Promise<GitResult> => {
      calls.push(
        String(options?.input ?? '')
          .split('\0')
          .filter((spec) => spec !== ''),
      );
      if (calls.length <= failures) {
        throw new GitCommandError([...args], signal === null ? 128 : null, stderr, signal);
      }
      return ok;
    };
    return { run, calls };
  }

  it('a file gone under an add of the whole folder is excluded from it, and the rest staged', async () => {
    const git = gitFailing(1, goneUnder('tmp/a b.txt'));
    assert.deepEqual(await addToIndex(git.run, path.join(temp.path, 'index'), ['.'], false), {
      unreadable: false,
    });
    assert.deepEqual(git.calls, [['.'], ['.', ':(exclude,literal)tmp/a b.txt']]);
  });

  it('gone again with that exclusion, or another failure, the add fails with git’s error', async () => {
    const again = gitFailing(2, goneUnder('tmp/x.txt'));
    await assert.rejects(
      addToIndex(again.run, path.join(temp.path, 'index'), ['.'], false),
      /unable to stat/,
    );
    assert.equal(again.calls.length, 2);
    const other = gitFailing(1, "fatal: unable to stat 'x.txt': Permission denied\n");
    await assert.rejects(addToIndex(other.run, path.join(temp.path, 'index'), ['.'], false), /Permission/);
    assert.equal(other.calls.length, 1);
  });

  it('a git killed by SIGBUS (a file truncated while it maps it) adds again, three times at most', async () => {
    const index = path.join(temp.path, 'index');
    const bus = gitFailing(3, '', 'SIGBUS');
    assert.deepEqual(await addToIndex(bus.run, index, ['.'], false), { unreadable: false });
    assert.deepEqual(
      bus.calls,
      Array.from({ length: 4 }, () => ['.']),
    );
    writeFileSync(`${index}.lock`, '');
    const always = gitFailing(Infinity, '', 'SIGBUS');
    await assert.rejects(addToIndex(always.run, index, ['.'], false), /SIGBUS/);
    assert.equal(always.calls.length, 4);
    assert.equal(existsSync(`${index}.lock`), false, 'the lock the killed git left is removed');
    // Another signal is someone stopping git: not made again here.
    const killed = gitFailing(1, '', 'SIGKILL');
    await assert.rejects(addToIndex(killed.run, index, ['.'], false), /SIGKILL/);
    assert.equal(killed.calls.length, 1);
  });

  it('each cause keeps its own bound: three SIGBUS deaths leave the eight tries for files gone', async () => {
    const gone = Array.from({ length: 8 }, (_, index) => `gone-${index}.txt`);
    // Three deaths, then each add finds the first file it still names gone, as a save in a loop would.
    const calls: string[][] = [];
    const run = async (args: readonly string[], options?: GitRunOptions): Promise<GitResult> => {
      const specs = String(options?.input ?? '')
        .split('\0')
        .filter((spec) => spec !== '');
      calls.push(specs);
      if (calls.length <= 3) {
        throw new GitCommandError([...args], null, '', 'SIGBUS');
      }
      const vanished = gone.map(toLiteralPathspec).find((spec) => specs.includes(spec));
      if (vanished !== undefined) {
        throw new GitCommandError([...args], 128, `fatal: pathspec '${vanished}' did not match any files\n`);
      }
      return ok;
    };
    const specs = ['kept.txt', ...gone].map(toLiteralPathspec);
    assert.deepEqual(await addToIndex(run, path.join(temp.path, 'index'), specs, false), {
      unreadable: false,
    });
    assert.equal(calls.length, 3 + 8 + 1);
    assert.deepEqual(calls.at(-1), [toLiteralPathspec('kept.txt')]);
  });
});
