import { strict as assert } from 'node:assert';
import { Emitter } from '../../../src/core/util/disposable';
import type {
  ProposedWrite,
  ProposedWriteDecision,
  ProposedWritesPort,
} from '../../../src/features/hunkReview/chat/hunkReviewPorts';
import { ProposedWriteHunks } from '../../../src/features/hunkReview/chat/proposedWrites';
import { mixHunks, splitHunks } from '../../../src/features/hunkReview/core/hunks';

/**
 * The edit review's side as the hunk review sees it: writes waiting, and the one answer each gets (the
 * edit review itself is VS Code's diff editor, tested in the real VS Code: test/integration/proposedHunks).
 */
class WritesWaiting implements ProposedWritesPort {
  private readonly waiting = new Map<string, ProposedWrite>();
  private readonly changed = new Emitter<void>();
  readonly answers: { id: string; decision: ProposedWriteDecision }[] = [];
  readonly onDidChange = (listener: () => void) => this.changed.event(listener);

  propose(write: ProposedWrite): void {
    this.waiting.set(write.id, write);
    this.changed.fire();
  }

  writes(): readonly ProposedWrite[] {
    return [...this.waiting.values()];
  }

  settle(id: string, decision: ProposedWriteDecision): boolean {
    if (!this.waiting.delete(id)) {
      return false;
    }
    this.answers.push({ id, decision });
    this.changed.fire();
    return true;
  }
}

/** Three hunks, CRLF, a BOM, multi-byte UTF-8 and no final newline. */
const CURRENT = '\ufeffone\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix';
const PROPOSED = '\ufeffone\r\nTWO ✓\r\nthree\r\nfour\r\nnew\r\nfive\r\nSIX';

describe('hunk review of a write waiting for review: each hunk kept or dropped, the write that lands is the mix', () => {
  let writes: WritesWaiting;
  let hunks: ProposedWriteHunks;

  beforeEach(() => {
    writes = new WritesWaiting();
    hunks = new ProposedWriteHunks(writes);
    writes.propose({ id: 'r1', path: '/w/t.txt', current: CURRENT, proposed: PROPOSED });
  });

  afterEach(() => hunks.dispose());

  it('answers once every hunk is decided, with the mix byte for byte', () => {
    assert.deepEqual(hunks.review('/w/t.txt')?.open, [0, 1, 2]);
    hunks.decide('/w/t.txt', 0, 'keep');
    hunks.decide('/w/t.txt', 2, 'undo');
    assert.deepEqual(writes.answers, [], 'nothing is answered while a hunk is still open');
    assert.deepEqual(hunks.review('/w/t.txt')?.open, [1]);
    hunks.decide('/w/t.txt', 1, 'keep');
    assert.deepEqual(writes.answers, [
      { id: 'r1', decision: { partly: '\ufeffone\r\nTWO ✓\r\nthree\r\nfour\r\nnew\r\nfive\r\nsix' } },
    ]);
    assert.equal(hunks.review('/w/t.txt'), undefined, 'the write no longer waits');
  });

  it('answers Keep when every hunk is kept and Undo when none is (the whole write, as the diff editor would)', () => {
    hunks.decideAll('/w/t.txt', 'keep');
    writes.propose({ id: 'r2', path: '/w/t.txt', current: CURRENT, proposed: PROPOSED });
    hunks.decideAll('/w/t.txt', 'undo');
    assert.deepEqual(writes.answers, [
      { id: 'r1', decision: 'keep' },
      { id: 'r2', decision: 'undo' },
    ]);
  });

  it('refuses a hunk as shown once the write shown is no longer the one waiting; nothing is answered', () => {
    const shown = hunks.review('/w/t.txt')?.versions.hunks[1];
    assert.ok(shown);
    writes.settle('r1', 'undo'); // answered in the diff editor meanwhile
    writes.propose({ id: 'r3', path: '/w/t.txt', current: CURRENT, proposed: 'other\n' });
    assert.throws(() => hunks.decide('/w/t.txt', 1, 'keep', shown), /no longer waiting/);
    assert.throws(() => hunks.decide('/w/t.txt', 0, 'keep', shown), /no longer waiting/);
    assert.deepEqual(writes.answers, [{ id: 'r1', decision: 'undo' }]);
  });

  it('forgets the decisions of a write answered elsewhere (the next write on the file starts afresh)', () => {
    hunks.decide('/w/t.txt', 0, 'keep');
    writes.settle('r1', 'keep');
    writes.propose({ id: 'r4', path: '/w/t.txt', current: CURRENT, proposed: PROPOSED });
    assert.deepEqual(hunks.review('/w/t.txt')?.open, [0, 1, 2]);
  });

  it('leaves a binary proposal to the diff editor', () => {
    writes.propose({ id: 'r5', path: '/w/b.bin', current: 'a\n', proposed: 'a\u0000b\n' });
    assert.equal(hunks.review('/w/b.bin'), undefined);
  });

  it('mixes hunks that only add or only remove, at the start and the end, byte-exact', () => {
    const before = Buffer.from('a\nb\nc\nd');
    const after = Buffer.from('start\na\nc\nd\nend');
    const versions = splitHunks(before, after);
    assert.ok(!('refused' in versions));
    assert.equal(versions.hunks.length, 3);
    const mix = (kept: number[]): string => Buffer.from(mixHunks(versions, new Set(kept))).toString();
    assert.equal(mix([]), 'a\nb\nc\nd');
    assert.equal(mix([0, 1, 2]), 'start\na\nc\nd\nend');
    assert.equal(mix([1]), 'a\nc\nd');
    assert.equal(mix([0, 2]), 'start\na\nb\nc\nd\nend');
  });
});
