import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { ChatHarness, testAgent, until, type HarnessOptions } from '../support/chatHarness';
import { gitChangeReview } from '../support/oneStore';

const BEFORE = Buffer.from('one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix');
const AFTER = Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nnew\r\nfive\r\nSIX');

/** The chat's options: a change review over real git, as the product has it. */
const options: Omit<HarnessOptions, 'storageDir' | 'dir'> = {
  agents: [testAgent('a')],
  changes: (dir, storage) =>
    gitChangeReview(dir, storage, () => undefined, { review: { liveRefreshMs: 20 } }),
};

describe('hunk review: the hunks kept stay kept after a reload (the card holds them)', () => {
  let chat: ChatHarness | undefined;
  let outside: string;

  beforeEach(() => {
    outside = mkdtempSync(path.join(os.tmpdir(), 'acp-kept-outside-'));
  });

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
    rmSync(outside, { recursive: true, force: true });
  });

  function lastTurn(): TurnMessage | undefined {
    return chat?.controller.viewState().chat?.thread.turns.at(-1);
  }

  async function hunksLeft(file: string): Promise<string[]> {
    const review = await chat!.hunks!.review(file);
    assert.ok(review && !('refused' in review), 'split into hunks');
    return review.hunks.map((hunk) =>
      review.now.slice(hunk.after.start, hunk.after.start + hunk.after.count).join(''),
    );
  }

  it('keeps two of three hunks, reloads: only the third shows, the card counts the same, Undo of it gives the mix', async () => {
    chat = new ChatHarness(options);
    const file = path.join(chat.dir, 't.txt');
    writeFileSync(file, BEFORE);
    writeFileSync(path.join(outside, 'after'), AFTER);
    await chat.ready();
    await chat.send(`own shell cp ${path.join(outside, 'after')} t.txt`);
    await until(
      () => lastTurn()?.changes?.live === false && lastTurn()?.changes?.files.length === 1,
      'the card',
    );
    assert.deepEqual(await hunksLeft(file), ['TWO\r\n', 'new\r\n', 'SIX']);
    await chat.hunks!.keep(file, 2);
    await chat.hunks!.keep(file, 0);
    assert.deepEqual(await hunksLeft(file), ['new\r\n']);
    const card = lastTurn()?.changes?.files[0];
    assert.equal(card?.keptHunks?.length, 2);

    chat = await chat.restarted(options, { keepDir: true });
    await chat.ready();
    await until(() => chat!.hunks!.files().length === 1, 'the last turn reviewed again');
    assert.deepEqual(await hunksLeft(file), ['new\r\n'], 'the kept hunks are not shown again');
    const after = lastTurn()?.changes?.files[0];
    assert.deepEqual(
      [after?.added, after?.removed, after?.decision],
      [card?.added, card?.removed, 'pending'],
    );

    await chat.hunks!.undo(file, 0);
    assert.ok(readFileSync(file).equals(Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX')));
    assert.equal(lastTurn()?.changes?.files[0]?.decision, 'kept');
  });
});
