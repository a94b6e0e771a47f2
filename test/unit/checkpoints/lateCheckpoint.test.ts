import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { gitChangeReview } from '../support/oneStore';

/**
 * A checkpoint slower than its limit (the first of a large folder on a loaded machine): the limit is made
 * short and the checkpoint held back by the test, rather than the machine loaded. The prompt goes on; the
 * checkpoint finishes in the background; the turn gets it, says what it could not track, and gets its card.
 */
describe('a checkpoint that takes longer than its limit', () => {
  let chat: ChatHarness | undefined;
  let outside: string;
  let release: (() => void) | undefined;
  let held = 0;
  let calls = 0;
  let armed = false;

  beforeEach(() => {
    outside = mkdtempSync(path.join(os.tmpdir(), 'acp-late-'));
    release = undefined;
    held = 0;
    calls = 0;
    armed = false;
    chat = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) =>
        gitChangeReview(dir, storage, () => undefined, {
          review: { checkpointTimeoutMs: 3000, liveRefreshMs: 20 },
          // Once armed, the next checkpoint starts only when the test releases it.
          wrap: (store) =>
            Object.assign(Object.create(store) as typeof store, {
              create: () => {
                calls++;
                if (!armed) {
                  return store.create();
                }
                armed = false;
                held++;
                return new Promise<void>((resolve) => (release = resolve)).then(() => store.create());
              },
            }),
        }),
    });
  });

  afterEach(async () => {
    release?.();
    writeFileSync(path.join(outside, 'go'), '');
    await chat?.dispose();
    chat = undefined;
    rmSync(outside, { recursive: true, force: true });
  });

  const file = (name: string): string => path.join((chat as ChatHarness).dir, name);
  const turns = (): readonly TurnMessage[] => chat?.controller.viewState().chat?.thread.turns ?? [];
  const LATE = /^Checkpoint taken \d+ s into this turn .*changes made before then are not listed/;

  async function warmedUp(): Promise<void> {
    await chat!.ready();
    // The warm-up checkpoint the open chat takes is not held back: the test arms the next one.
    await until(() => calls >= 1, 'the warm-up checkpoint');
  }

  it('the turn goes on, gets the checkpoint once it is done, lists what changed after it and says what it could not', async () => {
    await warmedUp();
    armed = true;
    const go = path.join(outside, 'go');
    const sending = chat!.send(
      `own write early.txt before ; shell while [ ! -e ${go} ]; do sleep 0.02; done ; write late.txt after`,
    );
    await until(
      () => held === 1 && existsSync(file('early.txt')),
      'the agent to write while the checkpoint waits',
    );
    assert.match(
      turns()[0]?.checkpointProblem ?? '',
      /still being taken after 3 s: the turn's changes are listed once it is done/,
      'said while it is taken',
    );
    assert.equal(turns()[0]?.status, 'running', 'the prompt went out');
    release?.();
    await until(() => turns()[0]?.checkpointId !== undefined, 'the late checkpoint on the turn');
    assert.match(turns()[0]?.checkpointProblem ?? '', LATE);
    writeFileSync(go, '');
    await sending;
    await until(() => turns()[0]?.changes?.live === false, 'the final list');
    assert.deepEqual(
      turns()[0]?.changes?.files.map((f) => `${f.kind} ${f.relativePath}`),
      ['created late.txt'],
      'what changed after the checkpoint; early.txt was in it already',
    );
    await chat!.controller.handleMessage({ type: 'turn_changes', turnId: turns()[0]!.id, action: 'undo' });
    assert.equal(existsSync(file('late.txt')), false);
    assert.equal(
      readFileSync(file('early.txt'), 'utf8'),
      'before',
      'before the checkpoint: as the note says',
    );

    // The next turn's checkpoint is not held back by the first: it is on time.
    await chat!.send('own write next.txt x');
    await until(() => turns()[1]?.changes?.live === false, 'the next card');
    assert.ok(turns()[1]?.checkpointId);
    assert.equal(turns()[1]?.checkpointProblem, undefined);
  });

  it('a turn that ended before its checkpoint was done gets none, and says why', async () => {
    await warmedUp();
    armed = true;
    await chat!.send('own write b.txt first');
    assert.equal(turns()[0]?.status, 'completed');
    assert.equal(turns()[0]?.checkpointId, undefined);
    release?.();
    await until(
      () => /done only after the turn had ended/.test(turns()[0]?.checkpointProblem ?? ''),
      'the turn to say why it has no checkpoint',
    );
    // Taken after the turn, it holds what the turn left: nothing to list, nothing to restore to.
    assert.equal(turns()[0]?.checkpointId, undefined);
    assert.equal(turns()[0]?.changes, undefined);
  });
});
