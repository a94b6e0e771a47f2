import { strict as assert } from 'node:assert';
import { keepingObjectReads } from '../../../src/features/checkpoints/core/objectReads';

const COMMIT = 'd99daa49e078340138436c8ae760b645acfefb05';
const BLOB = '0637a088a01e8ddab3bf3fa98dbe804cbde1a0dc';
const SHA256 = 'a'.repeat(64);

/** A git that answers every command with `answer(args)` and records what it was asked. */
function countingGit(answer: (args: readonly string[]) => string = (args) => `object ${args.join(' ')}`) {
  const runs: string[] = [];
  const git = async (args: readonly string[], input?: string): Promise<string> => {
    runs.push(args.join(' ') + (input === undefined ? '' : ` <${input}`));
    return answer(args);
  };
  return { git, runs };
}

describe('checkpoints: git objects read by their full id are read once', () => {
  it('reads a commit message and a blob once each, however often they are asked for', async () => {
    const { git, runs } = countingGit();
    const reads = keepingObjectReads(git);
    for (let round = 0; round < 5; round++) {
      assert.equal(await reads(['cat-file', 'commit', COMMIT]), `object cat-file commit ${COMMIT}`);
      assert.equal(await reads(['cat-file', 'blob', BLOB]), `object cat-file blob ${BLOB}`);
      assert.equal(await reads(['cat-file', 'commit', SHA256]), `object cat-file commit ${SHA256}`);
    }
    assert.deepEqual(runs, [
      `cat-file commit ${COMMIT}`,
      `cat-file blob ${BLOB}`,
      `cat-file commit ${SHA256}`,
    ]);
  });

  it('runs every other command each time: refs, abbreviated ids, other kinds, other commands, input', async () => {
    const { git, runs } = countingGit();
    const reads = keepingObjectReads(git);
    const commands = [
      ['cat-file', 'commit', 'HEAD'],
      ['cat-file', 'commit', 'refs/checkpoints/x'],
      ['cat-file', 'commit', COMMIT.slice(0, 12)],
      ['cat-file', 'commit', COMMIT.toUpperCase()],
      ['cat-file', 'blob', `${COMMIT}:file.txt`],
      ['cat-file', 'tree', COMMIT],
      ['cat-file', '-p', COMMIT],
      ['cat-file', 'commit', COMMIT, '--textconv'],
      ['ls-files', '-z', '-o'],
    ];
    for (let round = 0; round < 2; round++) {
      for (const args of commands) {
        await reads(args);
      }
      await reads(['hash-object', '-w', '--stdin'], '[]');
    }
    assert.equal(runs.length, 2 * (commands.length + 1));
  });

  it('does not keep a read that failed: the next one runs git again', async () => {
    let fail = true;
    const { git, runs } = countingGit(() => {
      if (fail) {
        throw new Error('fatal: Not a valid object name');
      }
      return 'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n';
    });
    const reads = keepingObjectReads(git);
    await assert.rejects(reads(['cat-file', 'commit', COMMIT]), /Not a valid object name/);
    fail = false;
    assert.match(await reads(['cat-file', 'commit', COMMIT]), /^tree /);
    await reads(['cat-file', 'commit', COMMIT]);
    assert.equal(runs.length, 2);
  });

  /** Reads of blobs `0…0` to `9…9` through `reads`; `runs` counts the git processes. */
  function blobs(bounds: { entries: number; entryChars: number; totalChars: number }, chars = 4) {
    const ids = Array.from({ length: 10 }, (_, index) => String(index).repeat(40));
    const { git, runs } = countingGit((args) => 'x'.repeat(args[2] === ids[9] ? 100 : chars));
    const reads = keepingObjectReads(git, bounds);
    return { runs, read: (index: number): Promise<string> => reads(['cat-file', 'blob', ids[index]!]) };
  }

  it('keeps at most its number of entries, letting the least recently used go first', async () => {
    const { runs, read } = blobs({ entries: 3, entryChars: 50, totalChars: 1000 });
    await read(0);
    await read(1);
    await read(2);
    await read(0); // kept: 0 is now the most recently used
    assert.equal(runs.length, 3);
    await read(3); // a fourth: 1, the least recently used, goes
    await read(0);
    await read(2);
    await read(3);
    assert.equal(runs.length, 4, '0, 2 and 3 kept');
    await read(1);
    assert.equal(runs.length, 5, '1 was let go');
  });

  it('keeps at most its characters in all, and never an entry longer than one may be', async () => {
    const { runs, read } = blobs({ entries: 100, entryChars: 50, totalChars: 10 });
    await read(0);
    await read(1); // 8 characters kept
    await read(0);
    assert.equal(runs.length, 2);
    await read(2); // 12: over the total, so 1 (the least recently used) goes
    await read(0);
    await read(2);
    assert.equal(runs.length, 3, '0 and 2 kept');
    await read(1);
    assert.equal(runs.length, 4, '1 was let go');
    await read(9); // 100 characters: longer than an entry may be
    await read(9);
    assert.equal(runs.length, 6, 'never kept');
  });
});
