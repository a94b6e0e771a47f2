import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { gitChangeReview } from '../support/oneStore';
import { loggingGit, useShadowStore, write } from './support/shadowStore';

/** Runs ahead of the wall clock: stamps just taken count as settled, so a proof can be made. */
const ahead = (): number => Date.now() + 60_000;

/**
 * A checkpoint taken while the user writes a message (`speculate`) is what Send gets, with no git process
 * on the send path, only while stamps taken before it prove the folder unchanged. Every change a user or an
 * agent can make between the two — in place with the size and times kept, a new file anywhere, a rename,
 * a link swapped in — must make Send take a new checkpoint that has it.
 */
describe('checkpoints: the checkpoint taken ahead of Send', function () {
  this.timeout(120_000);
  const fixture = useShadowStore();
  let log: string;

  let plant: string;

  /**
   * A store whose git logs each command line (to see whether Send ran git at all). While `plant` exists,
   * the next listing of the shadow index (the first step of a checkpoint ahead) writes `planted.txt` into
   * the workspace just after it: a file that appears while the checkpoint ahead is being taken.
   */
  function openStore(now: () => number = ahead) {
    plant = path.join(fixture.root, 'plant');
    const planted = path.join(fixture.workspace, 'planted.txt');
    const planting = `case "$*" in *'ls-files -z --cached'*) [ -e '${plant}' ] && rm '${plant}' && trap "printf 'planted' > '${planted}'" EXIT;; esac`;
    const logging = loggingGit(fixture.root, planting);
    log = logging.log;
    return fixture.openStore({ git: logging.git, now });
  }

  /** The git commands run since the last call. */
  function gitSince(): string[] {
    const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    fs.writeFileSync(log, '');
    return lines;
  }

  const file = (rel: string): string => path.join(fixture.workspace, rel);

  beforeEach(() => {
    write(fixture.workspace, {
      '.gitignore': '*.log\n',
      'src/a.txt': 'alpha\n',
      'src/deep/b.txt': 'bravo\n',
      'docs/readme.md': 'read me\n',
      'empty-ish/.keep': '',
    });
  });

  it('Send after a checkpoint taken ahead runs no git while nothing changed, and gets that checkpoint', async () => {
    const store = await openStore();
    await store.create(); // the first checkpoint (the chat opened)
    await store.speculate();
    gitSince();
    const sent = await store.create();
    assert.deepEqual(gitSince(), [], 'no git process on the send path');
    assert.equal(await store.create(), sent, 'the proof still holds: same checkpoint');
    assert.equal(Buffer.from((await store.read(sent, file('src/a.txt')))!).toString(), 'alpha\n');
  });

  it('a second checkpoint ahead (another click into the box) while the first still holds runs no git', async () => {
    const store = await openStore();
    await store.create();
    await store.speculate();
    gitSince();
    await store.speculate();
    assert.deepEqual(gitSince(), [], 'the first one still holds');
    fs.writeFileSync(file('src/a.txt'), 'ALPHA\n');
    await store.speculate();
    assert.notDeepEqual(gitSince(), [], 'a file changed: taken again');
    const sent = await store.create();
    assert.deepEqual(gitSince(), [], 'Send uses the new one');
    assert.equal(Buffer.from((await store.read(sent, file('src/a.txt')))!).toString(), 'ALPHA\n');
  });

  it('checkpoints taken ahead that no Send used leave no checkpoint behind (the kept ones stay the turns’)', async () => {
    const store = await openStore();
    const refs = (): string[] => {
      const shadows = path.join(fixture.storageDir, 'checkpoints');
      const gitDir = path.join(
        shadows,
        fs.readdirSync(shadows).find((name) => !name.startsWith('.'))!,
      );
      const listed = execFileSync('git', [
        '--git-dir',
        gitDir,
        'for-each-ref',
        '--format=%(objectname)',
        'refs/checkpoints/',
      ]);
      return listed.toString().split('\n').filter(Boolean).sort();
    };
    const first = (await store.create()).split('.').at(-1)!;
    for (const text of ['one\n', 'two\n', 'three\n']) {
      fs.writeFileSync(file('src/a.txt'), text);
      await store.speculate();
    }
    fs.writeFileSync(file('src/a.txt'), 'sent\n');
    const sent = (await store.create()).split('.').at(-1)!;
    assert.deepEqual(
      refs(),
      [first, sent].sort(),
      'the first checkpoint and Send’s; none of the three ahead',
    );
    await store.speculate();
    assert.equal((await store.create()).split('.').at(-1), sent, 'nothing changed: the same checkpoint');
    assert.deepEqual(refs(), [first, sent].sort());
  });

  it('without the time to trust its stamps (files written just now), Send takes its checkpoint as before', async () => {
    const store = await openStore(() => Date.now());
    await store.speculate();
    gitSince();
    await store.create();
    assert.notDeepEqual(gitSince(), [], 'not proven: Send looked again');
  });

  /** Each change made between the checkpoint ahead and Send, and what Send's checkpoint must then hold. */
  const CHANGES: readonly { name: string; change(): void; expect: Record<string, string | undefined> }[] = [
    {
      name: 'a file rewritten in place, same size, its times set back',
      change: () => {
        const before = fs.statSync(file('src/a.txt'));
        fs.writeFileSync(file('src/a.txt'), 'ALPHA\n');
        fs.utimesSync(file('src/a.txt'), before.atime, before.mtime);
      },
      expect: { 'src/a.txt': 'ALPHA\n' },
    },
    {
      name: 'a file truncated and written again with the same bytes count',
      change: () => fs.writeFileSync(file('src/deep/b.txt'), 'BRAVO\n'),
      expect: { 'src/deep/b.txt': 'BRAVO\n' },
    },
    {
      name: 'a new file in the root',
      change: () => fs.writeFileSync(file('new.txt'), 'new\n'),
      expect: { 'new.txt': 'new\n' },
    },
    {
      name: 'a new file in a folder that held only an empty file',
      change: () => fs.writeFileSync(file('empty-ish/new.txt'), 'new\n'),
      expect: { 'empty-ish/new.txt': 'new\n' },
    },
    {
      name: 'a file deleted',
      change: () => fs.rmSync(file('docs/readme.md')),
      expect: { 'docs/readme.md': undefined },
    },
    {
      name: 'a file renamed',
      change: () => fs.renameSync(file('src/a.txt'), file('src/renamed.txt')),
      expect: { 'src/a.txt': undefined, 'src/renamed.txt': 'alpha\n' },
    },
    {
      name: 'an ignored file un-ignored by rewriting .gitignore with its size kept',
      change: () => {
        fs.writeFileSync(file('kept.log'), 'log\n');
        fs.writeFileSync(file('.gitignore'), '*.tmp\n');
      },
      expect: { 'kept.log': 'log\n' },
    },
    {
      name: 'a file replaced by a link to the same bytes outside the workspace',
      change: () => {
        const outside = path.join(fixture.root, 'outside.txt');
        fs.writeFileSync(outside, 'alpha\n');
        fs.rmSync(file('src/a.txt'));
        fs.symlinkSync(outside, file('src/a.txt'));
      },
      expect: { 'src/a.txt': undefined },
    },
  ];

  for (const { name, change, expect } of CHANGES) {
    it(`${name} between the checkpoint ahead and Send is in Send's checkpoint`, async () => {
      const store = await openStore();
      await store.create();
      await store.speculate();
      gitSince();
      const ahead = await store.create();
      assert.deepEqual(gitSince(), [], 'proven: the checkpoint taken ahead, no git run');
      change();
      const sent = await store.create();
      assert.notEqual(sent, ahead, 'not the checkpoint taken ahead');
      for (const [rel, bytes] of Object.entries(expect)) {
        const stored = await store.read(sent, file(rel));
        assert.equal(stored === undefined ? undefined : Buffer.from(stored).toString(), bytes, rel);
      }
    });
  }

  it("a file that appears while the checkpoint ahead is taken, then changed in place, is in Send's checkpoint as changed", async () => {
    const store = await openStore();
    await store.create();
    fs.writeFileSync(plant, '');
    await store.speculate();
    assert.equal(fs.existsSync(plant), false, 'the file was planted during the checkpoint ahead');
    assert.equal(fs.readFileSync(file('planted.txt'), 'utf8'), 'planted');
    fs.writeFileSync(file('planted.txt'), 'PLANTED'); // in place, same size
    const sent = await store.create();
    assert.equal(Buffer.from((await store.read(sent, file('planted.txt')))!).toString(), 'PLANTED');
  });

  it('a file created at any moment of the checkpoint ahead is in the checkpoint Send takes (run 40 times)', async () => {
    const store = await openStore();
    await store.create();
    for (let run = 0; run < 40; run++) {
      const name = `race-${run}.txt`;
      const taking = store.speculate();
      // The file appears after a varying number of event-loop turns: before, during or after the look.
      for (let turn = 0; turn < run % 20; turn++) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      fs.writeFileSync(file(name), `run ${run}\n`);
      await taking;
      const sent = await store.create();
      const stored = await store.read(sent, file(name));
      assert.equal(stored && Buffer.from(stored).toString(), `run ${run}\n`, `run ${run}`);
    }
  });
});

describe('checkpoints: a chat whose user starts writing', function () {
  this.timeout(60_000);
  let chat: ChatHarness | undefined;
  let ahead = 0;

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  it('takes the checkpoint ahead when the view says so, and the turn sent next lists what the agent wrote', async () => {
    ahead = 0;
    chat = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) =>
        gitChangeReview(dir, storage, () => undefined, {
          review: { liveRefreshMs: 20 },
          wrap: (store) =>
            Object.assign(Object.create(store) as typeof store, {
              speculate: async () => {
                await store.speculate?.();
                ahead++;
              },
            }),
        }),
    });
    await chat.ready();
    await chat.controller.handleMessage({ type: 'composing' });
    await until(() => ahead === 1, 'the checkpoint ahead');
    await chat.send('own write early.txt hello');
    const turns = (): readonly TurnMessage[] => chat?.controller.viewState().chat?.thread.turns ?? [];
    await until(() => turns()[0]?.changes?.live === false, 'the turn’s card');
    assert.ok(turns()[0]?.checkpointId, 'the turn has its checkpoint');
    assert.deepEqual(
      turns()[0]?.changes?.files.map((f) => `${f.kind} ${f.relativePath}`),
      ['created early.txt'],
    );
  });
});
