import { strict as assert } from 'node:assert';
import { transcriptAsMarkdown } from '../../src/chat/transcriptMarkdown';
import { Thread } from '../../src/core/thread/thread';

describe('the transcript given to a new session', () => {
  it('keeps the latest entries within its bound and says how many earlier ones were left out', () => {
    const thread = new Thread();
    for (let i = 0; i < 1000; i++) {
      const turn = thread.startTurn(`question ${i} ${'q'.repeat(500)}`, []);
      thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });
    }
    const text = transcriptAsMarkdown(thread.snapshot(), 20_000);
    assert.ok(text.length <= 20_500, `${text.length} characters`);
    assert.match(text, /\((\d+) earlier entries are left out\.\)/);
    assert.match(text, /question 999 /);
    assert.doesNotMatch(text, /question 0 /);
    const whole = transcriptAsMarkdown(thread.snapshot(), 10_000_000);
    assert.doesNotMatch(whole, /left out/);
    assert.match(whole, /## User\n\nquestion 0 q+\n\n## User\n\nquestion 1 /);
  });
});
