import { strict as assert } from 'node:assert';
import FakeTimers from '@sinonjs/fake-timers';
import {
  ProblemsWatch,
  type DiagnosticsPort,
  type Problem,
  type ProblemsOffer,
} from '../../../src/features/problems/chat/problemsOffer';
import { Emitter } from '../../../src/core/util/disposable';
import { Thread } from '../../../src/core/thread/thread';

/** Problems the test sets by hand (no language server runs here), reporting changes when told to. */
class ManualDiagnostics implements DiagnosticsPort {
  current: Problem[] = [];
  readonly changed = new Emitter<readonly string[]>();
  problems(paths?: readonly string[]): Problem[] {
    return paths ? this.current.filter((problem) => paths.includes(problem.path)) : [...this.current];
  }
  onDidChange(listener: (paths: readonly string[]) => void) {
    return this.changed.event(listener);
  }
  async check(): Promise<void> {}
  relativePath(path: string): string {
    return path;
  }
}

const error = (path: string, message: string): Problem => ({
  path,
  line: 1,
  column: 1,
  severity: 'error',
  message,
});

function fileChange(path: string) {
  return {
    path,
    relativePath: path,
    kind: 'modified' as const,
    added: 1,
    removed: 0,
    decision: 'pending' as const,
  };
}

describe('ProblemsWatch: when diagnostics count as settled', () => {
  // Time is the subject here (the quiet moment and the upper bound): a fake clock (setTimeout and
  // Date) steps through each window exactly, so what happened, or did not, within it is certain.
  let clock: ReturnType<typeof FakeTimers.install>;
  const sleep = (ms: number) => clock.tickAsync(ms);
  let watch: ProblemsWatch | undefined;
  beforeEach(() => {
    clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    watch?.dispose();
    clock.uninstall();
  });

  function setup(options: { quietMs: number; maxWaitMs: number }) {
    const diagnostics = new ManualDiagnostics();
    const thread = new Thread();
    const offers: (ProblemsOffer | undefined)[] = [];
    watch = new ProblemsWatch(diagnostics, (_chatId, offer) => offers.push(offer), options);
    const events = thread.onEvent((event) => watch?.observe('c1', thread, event));
    return { diagnostics, thread, offers, events };
  }

  it('waits the whole bound when no report comes, and takes the change list recorded after the turn ended', async () => {
    const { diagnostics, thread, offers } = setup({ quietMs: 50, maxWaitMs: 400 });
    const turn = thread.startTurn('write', []);
    thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    // The final change list arrives a moment later, as ChangeReview records it.
    thread.updateTurn(turn.id, {
      changes: { files: [fileChange('/w/a.ts')], live: false, coverage: 'full' },
    });
    diagnostics.current = [error('/w/a.ts', 'new'), error('/w/untouched.ts', 'not ours')];
    diagnostics.changed.fire(['/w/untouched.ts']); // another file's report does not settle ours
    await sleep(200);
    assert.equal(offers.length, 0, 'still waiting for a report on the changed file');
    await sleep(200); // at the bound
    assert.equal(offers.length, 1);
    assert.deepEqual(offers[0]?.problems, [error('/w/a.ts', 'new')]);
  });

  it('settles a quiet moment after the changed file is reported on, and a new turn withdraws the offer', async () => {
    const { diagnostics, thread, offers } = setup({ quietMs: 100, maxWaitMs: 5_000 });
    diagnostics.current = [error('/w/a.ts', 'old')];
    const turn = thread.startTurn('write', []);
    thread.updateTurn(turn.id, { changes: { files: [fileChange('/w/a.ts')], live: true, coverage: 'full' } });
    thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    diagnostics.current = [error('/w/a.ts', 'old'), error('/w/a.ts', 'new')];
    diagnostics.changed.fire(['/w/a.ts']);
    await sleep(60);
    diagnostics.changed.fire(['/w/a.ts']); // still reporting: the quiet moment starts again
    await sleep(60);
    assert.equal(offers.length, 0);
    await sleep(120);
    assert.deepEqual(
      offers.map((offer) => offer?.problems.map((p) => p.message)),
      [['new']],
    );
    assert.equal(watch?.offer('c1')?.turnId, turn.id);
    thread.startTurn('next', []);
    assert.deepEqual(offers.at(-1), undefined, 'withdrawn when the next turn starts');
    assert.equal(watch?.offer('c1'), undefined);
  });
});
