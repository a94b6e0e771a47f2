import { strict as assert } from 'node:assert';
import { entriesOf, firstTurn, text, useTestAgent } from './support/testAgent';

/** The agent's reply of the only turn in `session` entries: [user, agent]. */
function reply(entries: unknown[]): string {
  const agent = entries.find((entry) => (entry as { kind?: string }).kind === 'agent') as
    { text: string } | undefined;
  assert.ok(agent, `no agent entry in ${JSON.stringify(entries)}`);
  return agent.text;
}

/** [index, written at] of every `c<i>t<ms>` chunk, in the order they arrived. */
function chunksOf(reply: string): [number, number][] {
  return [...reply.matchAll(/c(\d+)t(\d+)/g)].map((match) => [Number(match[1]), Number(match[2])]);
}

/** The demo agent's `timed` scenario, which the chunk → DOM latency benchmark reads (bench/latency.ts). */
describe('the timed scenario (chunks carrying their write time)', () => {
  const agent = useTestAgent();

  it('paces n chunks at the rate asked, each stamped with the wall-clock time it was written', async () => {
    const session = await agent.session();
    const before = Date.now();
    const turn = await session.prompt([text('timed 41 rate 200')]);
    const after = Date.now();
    assert.equal(turn.status, 'completed');
    const answer = reply(entriesOf(session));
    const chunks = chunksOf(answer);
    assert.deepEqual(
      chunks.map(([index]) => index),
      Array.from({ length: 41 }, (_, i) => i + 1),
    );
    const times = chunks.map(([, at]) => at);
    assert.ok(
      times[0]! >= before && times.at(-1)! <= after,
      `${times[0]}…${times.at(-1)} not in ${before}…${after}`,
    );
    for (let i = 1; i < times.length; i++) {
      assert.ok(times[i]! >= times[i - 1]!, `chunk ${i + 1} was stamped before chunk ${i}`);
    }
    // 41 chunks at 200/s: the last is due 200 ms after the first was written, and never written earlier.
    assert.ok(
      times.at(-1)! - times[0]! >= 200,
      `41 chunks at 200/s took only ${times.at(-1)! - times[0]!} ms`,
    );
    // Letters and digits, a space between chunks and a paragraph break after every 20th.
    assert.match(answer, /^c1t\d+ c2t\d+ /);
    assert.match(answer, /c20t\d+\n\nc21t\d+ /);
    assert.match(answer, /c40t\d+\n\nc41t\d+ $/);
  });

  it('writes a burst without pacing, every chunk once', async () => {
    const { session, turn } = await firstTurn(agent, 'timed 300 burst');
    assert.equal(turn.status, 'completed');
    const indexes = chunksOf(reply(entriesOf(session))).map(([index]) => index);
    assert.deepEqual(
      indexes,
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
  });

  it('answers arguments it cannot use with its usage, as invalid params', async () => {
    const session = await agent.session();
    for (const prompt of [
      'timed',
      'timed 0',
      'timed 5 rate 0',
      'timed 5 rate',
      'timed 5 rate 10 burst',
      'timed 5 fast',
    ]) {
      const turn = await session.prompt([text(prompt)]);
      assert.equal(turn.status, 'failed', prompt);
      assert.equal(turn.error?.kind, 'invalid_params', prompt);
      assert.match(
        turn.error?.message ?? '',
        /usage: timed <n> \[rate <chunks per second>\] \[burst\]/,
        prompt,
      );
    }
  });
});
