import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import * as path from 'node:path';
import { FolderStamps } from '../../../src/features/checkpoints/core/folderStamps';
import { StampTaker } from '../../../src/features/checkpoints/core/stampTaker';
import { silentLogger } from '../../../src/core/ports';
import { loggingGit, summary, useShadowStore, write } from './support/shadowStore';

/** Runs ahead of the wall clock: every stamp just taken counts as settled, so the quick look is used. */
const AHEAD_MS = 60_000;
const ahead = (): number => Date.now() + AHEAD_MS;

/**
 * What an agent hiding a change from an mtime check does: `saveTimes` keeps `target`'s atime and mtime (to the
 * nanosecond, on a file outside the workspace), `restoreTimes` sets them back after the change. Its ctime moves.
 */
function saveTimes(target: string): string {
  const saved = `${target.replace(/[/\\]/g, '_')}.times`;
  const keeper = path.join(os.tmpdir(), `acp-times-${process.pid}-${saved}`);
  fs.writeFileSync(keeper, '');
  execFileSync('touch', ['-h', '-r', target, keeper]);
  return keeper;
}

function restoreTimes(target: string, keeper: string): void {
  execFileSync('touch', ['-h', '-r', keeper, target]);
  fs.rmSync(keeper);
  const now = fs.lstatSync(target, { bigint: true });
  assert.ok(now.ctimeNs > now.mtimeNs, 'the mtime is set back; the ctime is not');
}

/**
 * The quick no-change look (folders' stamps unchanged: only git's stat of the indexed files) against an
 * agent that hides what it did: mtimes set back, FIFOs planted, rule files rewritten with their size and
 * mtime kept. Each git command may run 5 s at most, so a FIFO git opened fails fast instead of hanging.
 */
describe('checkpoints: the quick look over folders whose entries did not change', function () {
  this.timeout(60_000);
  const fixture = useShadowStore();
  let log: string;
  let stuck: string;

  /**
   * A store whose git writes each command line to `log` (to see which walks a checkpoint ran); while
   * `stuck` exists, its `diff-files` waits as a git that opened a FIFO would.
   */
  function openStore(now: () => number = ahead) {
    log = path.join(fixture.root, 'git.log');
    stuck = path.join(fixture.root, 'diff-files-stuck');
    // Stopped (SIGTERM, not the timeout's SIGKILL), it says so in the log: the trap is set before the command
    // line is logged, so no moment after that line lets a stop go unsaid.
    const trap = `if [ -e '${stuck}' ]; then trap 'kill $! 2>/dev/null; echo stopped >> '"'${log}'"'; exit 143' TERM; fi`;
    const wait = `if [ -e '${stuck}' ]; then case "$*" in *' diff-files '*) sleep 30 & wait $!;; esac; fi`;
    return fixture.openStore({ git: loggingGit(fixture.root, wait, trap).git, now, gitTimeoutMs: 5000 });
  }

  /** The git commands run since the last call: whether they listed untracked files (a full look). */
  function commandsSince(): { full: boolean; quick: boolean; stopped?: true } {
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    fs.writeFileSync(log, '');
    return {
      full: lines.some((line) => / ls-files .*-o/.test(line)),
      quick: lines.some((line) => / diff-files /.test(line)),
      ...(lines.includes('stopped') ? { stopped: true } : {}),
    };
  }

  const file = (rel: string): string => path.join(fixture.workspace, rel);

  beforeEach(() => {
    write(fixture.workspace, {
      '.gitignore': '*.log\n',
      'src/a.txt': 'a\n',
      'src/deep/b.txt': 'b\n',
      'docs/readme.md': 'read me\n',
    });
  });

  it('a no-change checkpoint over settled folders lists neither untracked nor ignored files again', async () => {
    const s = await openStore();
    const first = await s.create();
    assert.deepEqual(commandsSince(), { full: true, quick: false });
    assert.equal(await s.create(), first, 'same state, same checkpoint');
    assert.deepEqual(commandsSince(), { full: false, quick: true });
  });

  it('stamps taken within the settling time of a change are not trusted: the next look is a full one', async () => {
    fs.writeFileSync(file('src/fresh.txt'), 'fresh\n');
    const writtenAt = Date.now();
    const s = await openStore(() => writtenAt); // every look happens, by this clock, as src/ changed
    await s.create();
    commandsSince();
    await s.create();
    assert.deepEqual(commandsSince(), { full: true, quick: false });
  });

  it('a new file in a folder whose mtime was set back is in the next checkpoint', async () => {
    const s = await openStore();
    const before = await s.create();
    await s.create();
    commandsSince();
    const times = saveTimes(file('src/deep'));
    fs.writeFileSync(file('src/deep/planted.txt'), 'planted\n');
    restoreTimes(file('src/deep'), times);
    const after = await s.create();
    assert.equal(commandsSince().full, true);
    assert.deepEqual(summary(await s.changes(before, after), fixture.workspace), [
      'created src/deep/planted.txt +1 -0',
    ]);
  });

  it('a file renamed in a folder whose mtime was set back: both names are in the next checkpoint', async () => {
    const s = await openStore();
    const before = await s.create();
    const times = saveTimes(file('docs'));
    fs.renameSync(file('docs/readme.md'), file('docs/renamed.md'));
    restoreTimes(file('docs'), times);
    const after = await s.create();
    assert.deepEqual(summary(await s.changes(before, after), fixture.workspace), [
      'deleted docs/readme.md +0 -1',
      'created docs/renamed.md +1 -0',
    ]);
  });

  it('a tracked file rewritten with its size and mtime kept is in the next checkpoint', async () => {
    const s = await openStore();
    const before = await s.create();
    const times = saveTimes(file('src/a.txt'));
    fs.writeFileSync(file('src/a.txt'), 'A\n');
    restoreTimes(file('src/a.txt'), times);
    const after = await s.create();
    assert.deepEqual(summary(await s.changes(before, after), fixture.workspace), [
      'modified src/a.txt +1 -1',
    ]);
  });

  it('a tracked file whose mtime was old, rewritten within the second it was staged with its size and mtime kept, is in the next checkpoint', async () => {
    // git keeps whole seconds of ctime: the rewrite may fall in the second the checkpoint read the file.
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file('src/a.txt'), old, old);
    const s = await openStore();
    const before = await s.create();
    fs.writeFileSync(file('src/a.txt'), 'A\n');
    fs.utimesSync(file('src/a.txt'), old, old);
    const after = await s.create();
    assert.deepEqual(summary(await s.changes(before, after), fixture.workspace), [
      'modified src/a.txt +1 -1',
    ]);
  });

  it('a FIFO named .gitignore planted in a folder whose mtime was set back: the folder is left out, nothing hangs', async () => {
    const s = await openStore();
    await s.create();
    await s.create();
    const times = saveTimes(file('src/deep'));
    execFileSync('mkfifo', [file('src/deep/.gitignore')]);
    restoreTimes(file('src/deep'), times);
    await s.create();
    assert.deepEqual(s.untrackedFolders(), [file('src/deep')]);
  });

  it('a FIFO named .gitattributes planted while git checks the indexed files: git is stopped, the folder left out', async () => {
    const s = await openStore();
    await s.create();
    await s.create();
    commandsSince();
    const times = saveTimes(file('src/deep'));
    execFileSync('mkfifo', [file('src/deep/.gitattributes')]);
    restoreTimes(file('src/deep'), times);
    // git's check of the indexed files runs beside ours of the folders; here it hangs, as on that FIFO.
    fs.writeFileSync(stuck, '');
    await s.create();
    // Stopped while it waited (its trap logs it), or before its shell had even logged its command line (or set
    // its trap): the stamps, on their worker, can differ within a millisecond. Never left to the timeout (which
    // kills it without a word after it logged).
    const commands = commandsSince();
    assert.ok(
      isDeepStrictEqual(commands, { full: true, quick: true, stopped: true }) ||
        isDeepStrictEqual(commands, { full: true, quick: false, stopped: true }) ||
        isDeepStrictEqual(commands, { full: true, quick: false }),
      `git stopped, not timed out: ${JSON.stringify(commands)}`,
    );
    assert.deepEqual(s.untrackedFolders(), [file('src/deep')]);
  });

  it('a linked .gitignore whose target outside is swapped for a FIFO: the folder is left out, nothing hangs', async () => {
    const outside = path.join(fixture.root, 'outside-rules');
    fs.writeFileSync(outside, '*.tmp\n');
    fs.symlinkSync(outside, file('docs/.gitignore'));
    const s = await openStore();
    await s.create();
    await s.create(); // the link is left out (as any link) by the first: this one takes the rest
    commandsSince();
    await s.create();
    assert.equal(commandsSince().quick, true);
    fs.rmSync(outside);
    execFileSync('mkfifo', [outside]);
    await s.create();
    assert.deepEqual(s.untrackedFolders(), [file('docs')]);
  });

  it('an ignored file planted in a folder whose mtime was set back, then un-ignored with .gitignore size and mtime kept: it may have existed', async () => {
    const s = await openStore();
    await s.create();
    await s.create();
    const rootTimes = saveTimes(fixture.workspace);
    fs.writeFileSync(file('keep.log'), 'existing\n');
    restoreTimes(fixture.workspace, rootTimes);
    const ignoring = await s.create();
    const ruleTimes = saveTimes(file('.gitignore'));
    fs.writeFileSync(file('.gitignore'), '*.lo_\n'); // same size
    restoreTimes(file('.gitignore'), ruleTimes);
    const changes = await s.changes(ignoring, await s.create());
    const kept = changes.find((change) => change.path === file('keep.log'));
    assert.equal(kept?.kind, 'created', 'now visible, so listed');
    assert.equal(kept?.beforeUnknown, true, 'ignored at the checkpoint before: it may have existed');
  });
});

describe('checkpoints: folder stamps', () => {
  const fixture = useShadowStore();
  let taker: StampTaker;
  beforeEach(() => {
    taker = new StampTaker(silentLogger);
  });
  afterEach(() => taker.dispose());

  it('a folder changed with its mtime set back no longer matches its stamp', async () => {
    fs.mkdirSync(path.join(fixture.workspace, 'dir'));
    const stamps = new FolderStamps(fixture.workspace, taker, ahead);
    await stamps.addFolders(['dir/']);
    assert.equal(stamps.trustworthy, true);
    assert.equal(await stamps.unchanged(), true);
    const dir = path.join(fixture.workspace, 'dir');
    const times = saveTimes(dir);
    fs.writeFileSync(path.join(dir, 'new.txt'), 'x');
    restoreTimes(dir, times);
    assert.equal(await stamps.unchanged(), false);
  });

  it('a stamp taken within two seconds of the folder’s last change is not trustworthy', async () => {
    fs.mkdirSync(path.join(fixture.workspace, 'dir'));
    const madeAt = Date.now();
    const stamps = new FolderStamps(fixture.workspace, taker, () => madeAt);
    await stamps.addFolders(['dir/']);
    assert.equal(stamps.trustworthy, false);
    assert.equal(await stamps.unchanged(), false, 'never trusted');
  });

  it('a linked rule file whose target outside is rewritten with its size and times kept no longer matches', async () => {
    const outside = path.join(fixture.root, 'outside-rules');
    fs.writeFileSync(outside, '*.tmp\n');
    fs.symlinkSync(outside, path.join(fixture.workspace, '.gitignore'));
    const stamps = new FolderStamps(fixture.workspace, taker, ahead);
    await stamps.addRuleFile('.gitignore');
    assert.equal(await stamps.unchanged(), true);
    const times = saveTimes(outside);
    fs.writeFileSync(outside, '*.lo_\n');
    restoreTimes(outside, times);
    assert.equal(await stamps.unchanged(), false, 'the target’s ctime moved');
  });

  it('an entry stamped as gone that appears no longer matches; one that goes no longer matches', async () => {
    const stamps = new FolderStamps(fixture.workspace, taker, ahead);
    await stamps.addFolders(['later/', '']);
    assert.equal(await stamps.unchanged(), true);
    fs.mkdirSync(path.join(fixture.workspace, 'later'));
    assert.equal(await stamps.unchanged(), false);
    const again = new FolderStamps(fixture.workspace, taker, ahead);
    await again.addFolders(['later/']);
    fs.rmSync(path.join(fixture.workspace, 'later'), { recursive: true });
    assert.equal(await again.unchanged(), false);
  });

  it('a worker that does not answer in time (a stat that hangs) means a full look; the next look has a new one', async () => {
    const expiries: (() => void)[] = [];
    const waiting = new StampTaker(silentLogger, (expire) => {
      expiries.push(expire);
      return { cancel: () => undefined };
    });
    try {
      const stamps = new FolderStamps(fixture.workspace, waiting, ahead);
      await stamps.addFolders(['']);
      const looking = stamps.unchanged();
      expiries.at(-1)!(); // before the worker's answer can be read: as if it never came
      assert.equal(await looking, false, 'not known: a full look');
      assert.equal(await stamps.unchanged(), true, 'a new worker answers');
    } finally {
      waiting.dispose();
    }
  });

  it('stamps that cannot be taken (the worker gone) are never a match, and new ones are never trusted', async () => {
    const stamps = new FolderStamps(fixture.workspace, taker, ahead);
    await stamps.addFolders(['']);
    assert.equal(await stamps.unchanged(), true);
    taker.dispose();
    assert.equal(await stamps.unchanged(), false, 'not known: a full look');
    const after = new FolderStamps(fixture.workspace, taker, ahead);
    await after.addFolders(['']);
    assert.equal(after.trustworthy, false);
  });
});
