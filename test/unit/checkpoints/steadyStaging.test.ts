import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitCommandError } from '../../../src/features/checkpoints/core/gitRunner';
import { HELD_SAVE_MS } from '../../../src/features/checkpoints/core/heldSave';
import { RACY_MS, stageSteadily, type Add } from '../../../src/features/checkpoints/core/steadyStaging';

/** What a git killed by SIGBUS (a file it mapped truncated under it) rejects with, after its retry. */
const killed = (): GitCommandError => new GitCommandError(['add', '-A'], null, '', 'SIGBUS');

describe('checkpoints: staging while files move under git', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'acp-steady-'));
    writeFileSync(path.join(folder, 'busy.txt'), 'v1\n');
    writeFileSync(path.join(folder, 'calm.txt'), 'calm\n');
    // Written a minute ago: too old to be "written within the clock tick of our look".
    const past = new Date(Date.now() - 60_000);
    for (const name of ['busy.txt', 'calm.txt']) {
      utimesSync(path.join(folder, name), past, past);
    }
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  for (const [shape, pathspecs] of [
    ['named files', [':(literal)busy.txt', ':(literal)calm.txt']],
    ['the whole folder', ['.']],
  ] as const) {
    it(`a git killed while a file is rewritten stages the others without it and is unsure of it (${shape})`, async () => {
      const calls: (readonly string[])[] = [];
      const add: Add = async (specs) => {
        calls.push(specs);
        if (calls.length === 1) {
          writeFileSync(path.join(folder, 'busy.txt'), 'v2, longer than before\n');
          throw killed();
        }
      };
      const { unsure } = await stageSteadily({
        folder,
        add,
        pathspecs,
        reading: ['busy.txt', 'calm.txt'],
        unsureBefore: new Set(),
        wait: async () => {},
      });
      assert.deepEqual([...unsure], ['busy.txt']);
      assert.equal(calls.length, 2, 'staged once more, without the moving file');
      const second = calls[1] ?? [];
      assert.ok(!second.includes(':(literal)busy.txt'));
      if (shape === 'the whole folder') {
        assert.deepEqual(second, ['.', ':(exclude,literal)busy.txt']);
      } else {
        assert.deepEqual(second, [':(literal)calm.txt']);
      }
    });
  }

  it('a git killed while nothing moved fails the checkpoint with that error (nothing to blame)', async () => {
    const add: Add = async () => {
      throw killed();
    };
    await assert.rejects(
      stageSteadily({
        folder,
        add,
        pathspecs: ['.'],
        reading: ['calm.txt'],
        unsureBefore: new Set(),
        wait: async () => {},
      }),
      (error: unknown) => error instanceof GitCommandError && error.signal === 'SIGBUS',
    );
  });

  it('an empty file written within half a second is not taken as still: it waits that long, then is unsure of it', async () => {
    // A save caught between its truncation and its write, the writer held off the CPU: empty, and
    // unchanged for longer than a clock tick.
    const recently = new Date(Date.now() - 200);
    writeFileSync(path.join(folder, 'busy.txt'), '');
    utimesSync(path.join(folder, 'busy.txt'), recently, recently);
    // Non-empty and as recent: past the clock tick, so still.
    writeFileSync(path.join(folder, 'calm.txt'), 'calm\n');
    utimesSync(path.join(folder, 'calm.txt'), recently, recently);
    const waits: number[] = [];
    const calls: (readonly string[])[] = [];
    const { unsure } = await stageSteadily({
      folder,
      add: async (specs) => {
        calls.push(specs);
      },
      pathspecs: ['.'],
      reading: ['busy.txt', 'calm.txt'],
      unsureBefore: new Set(),
      wait: async (ms) => {
        waits.push(ms);
      },
    });
    assert.ok(200 > RACY_MS && 200 < HELD_SAVE_MS);
    assert.deepEqual(waits, [HELD_SAVE_MS]);
    assert.deepEqual(calls.slice(1), [[':(literal)busy.txt'], [':(literal)busy.txt']], 'read again by name');
    assert.deepEqual([...unsure], ['busy.txt'], 'still within the gap after the wait: unsure');
  });

  /** Stages the whole folder, reading `reading` (git not run): what it is unsure of, and its waits. */
  async function stageWhole(reading: readonly string[], now?: () => number) {
    const waits: number[] = [];
    const { unsure } = await stageSteadily({
      folder,
      add: async () => {},
      pathspecs: ['.'],
      reading,
      unsureBefore: new Set(),
      wait: async (ms) => {
        waits.push(ms);
      },
      ...(now === undefined ? {} : { now }),
    });
    return { unsure: [...unsure], waits };
  }

  it('an empty file untouched for longer than that is taken as emptied, and stored', async () => {
    writeFileSync(path.join(folder, 'busy.txt'), '');
    const past = new Date(Date.now() - 60_000);
    utimesSync(path.join(folder, 'busy.txt'), past, past);
    assert.deepEqual(await stageWhole(['busy.txt', 'calm.txt']), { unsure: [], waits: [] });
  });

  it('a file deleted within half a second (a save held half way) is not taken as deleted: it waits that long, then takes it written anew', async () => {
    const busy = path.join(folder, 'busy.txt');
    rmSync(busy); // the save's first half: the folder's entries change now
    const waits: number[] = [];
    const calls: (readonly string[])[] = [];
    const { unsure } = await stageSteadily({
      folder,
      add: async (specs) => {
        calls.push(specs);
      },
      pathspecs: [':(literal)busy.txt', ':(literal)calm.txt'],
      reading: ['busy.txt', 'calm.txt'],
      unsureBefore: new Set(),
      wait: async (ms) => {
        waits.push(ms);
        writeFileSync(busy, 'v2\n'); // the save goes on while we wait
        const past = new Date(Date.now() - 60_000);
        utimesSync(busy, past, past);
      },
    });
    assert.deepEqual(waits, [HELD_SAVE_MS]);
    assert.deepEqual(calls.slice(1), [[':(literal)busy.txt'], [':(literal)busy.txt']], 'read again by name');
    assert.deepEqual([...unsure], [], 'written anew and still: taken as it is');
  });

  it('a file still gone after that wait, its folder’s change still within the gap: unsure, never taken as deleted', async () => {
    rmSync(path.join(folder, 'busy.txt'));
    assert.deepEqual(await stageWhole(['busy.txt', 'calm.txt']), {
      unsure: ['busy.txt'],
      waits: [HELD_SAVE_MS],
    });
  });

  it('a file gone with its folder: the nearest folder still there says when; long ago, it is deleted', async () => {
    const sub = path.join(folder, 'sub');
    mkdirSync(sub);
    writeFileSync(path.join(sub, 'gone.txt'), 'gone\n');
    rmSync(sub, { recursive: true });
    const reading = ['sub/gone.txt', 'calm.txt'];
    assert.deepEqual(await stageWhole(reading), { unsure: ['sub/gone.txt'], waits: [HELD_SAVE_MS] });
    // A minute later: the folder has not changed since; the file was deleted, not saved.
    const later = () => Date.now() + 60_000;
    assert.deepEqual(await stageWhole(reading, later), { unsure: [], waits: [] });
  });
});
