import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointCommits } from '../../../src/features/checkpoints/core/checkpointCommits';
import { runGit, type ShadowLocation } from '../../../src/features/checkpoints/core/gitRunner';

const REFS = 'refs/checkpoints/';

describe('checkpoints: the order of checkpoints made within one second', () => {
  let root: string;
  let location: ShadowLocation;
  const git = async (...args: string[]) => (await runGit(location, args)).stdout.toString('utf8').trim();

  beforeEach(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'acp-commits-'));
    location = {
      git: 'git',
      gitDir: path.join(root, 'shadow'),
      workTree: path.join(root, 'workspace'),
      indexFile: path.join(root, 'shadow', 'index'),
      hooksDir: path.join(root, 'hooks'),
      homeDir: path.join(root, 'home'),
    };
    for (const dir of [location.gitDir, location.workTree, location.hooksDir, location.homeDir]) {
      mkdirSync(dir, { recursive: true });
    }
    await git('init', '--quiet', `--template=${location.hooksDir}`);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('gives each a later commit time than the newest, in this store and in one opened after it', async () => {
    const tree = await git('hash-object', '-t', 'tree', '-w', '/dev/null');
    // Every checkpoint made within the same second of the clock.
    const sameSecond = () => 1_800_000_000_500;
    const first = new CheckpointCommits((args, options) => runGit(location, args, options), REFS, sameSecond);
    const made = [
      await first.create('checkpoint 1', tree),
      await first.create('checkpoint 2', tree),
      await first.create('checkpoint 3', tree),
    ];
    // A store opened later on the same folder (another window), its clock still in that second.
    const reopened = new CheckpointCommits(
      (args, options) => runGit(location, args, options),
      REFS,
      sameSecond,
    );
    made.push(await reopened.create('checkpoint 4', tree));

    const times = await Promise.all(made.map((commit) => git('show', '-s', '--format=%ct', commit)));
    assert.deepEqual(times.map(Number), [1_800_000_000, 1_800_000_001, 1_800_000_002, 1_800_000_003]);
    // Pruning keeps the newest by commit time: that order is the order they were made in.
    const newestFirst = await git('for-each-ref', '--sort=-committerdate', '--format=%(objectname)', REFS);
    assert.deepEqual(newestFirst.split('\n'), [...made].reverse());
  });

  it('takes the clock as it is when it is ahead of the newest checkpoint', async () => {
    const tree = await git('hash-object', '-t', 'tree', '-w', '/dev/null');
    let now = 1_800_000_000_000;
    const commits = new CheckpointCommits(
      (args, options) => runGit(location, args, options),
      REFS,
      () => now,
    );
    const early = await commits.create('early', tree);
    now += 60_000;
    const later = await commits.create('later', tree);
    assert.equal(await git('show', '-s', '--format=%ct %at', early), '1800000000 1800000000');
    assert.equal(await git('show', '-s', '--format=%ct %at', later), '1800000060 1800000060');
  });
});
