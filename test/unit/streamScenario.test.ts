import { strict as assert } from 'node:assert';
import { entriesOf, firstTurn, text, useTestAgent } from './support/testAgent';

/** The demo agent's `stream … size <chars>`, which the host memory bench streams 10 MB with (bench/hostMemory.ts). */
describe('the stream scenario with size (chunks padded to a length)', () => {
  const agent = useTestAgent();

  it('pads every chunk with words to exactly the size asked', async () => {
    const { session, turn } = await firstTurn(agent, 'stream 12 size 40 burst');
    assert.equal(turn.status, 'completed');
    const agentEntry = entriesOf(session).find((entry) => (entry as { kind?: string }).kind === 'agent') as
      { text: string } | undefined;
    assert.ok(agentEntry, 'an answer');
    const chunks = agentEntry.text.split(/(?=chunk \d+ )/);
    assert.equal(chunks.length, 12);
    chunks.forEach((chunk, i) => {
      assert.equal(chunk.length, 40, `chunk ${i + 1}: ${JSON.stringify(chunk)}`);
      assert.match(chunk, new RegExp(`^chunk ${i + 1} (word )*w?o?r?d?$`));
    });
  });

  it('answers a size that is not a count with its usage, as invalid params', async () => {
    const session = await agent.session();
    for (const prompt of ['stream 3 size lots', 'stream 3 size']) {
      const turn = await session.prompt([text(prompt)]);
      assert.equal(turn.status, 'failed', prompt);
      assert.equal(turn.error?.kind, 'invalid_params', prompt);
      assert.match(turn.error?.message ?? '', /usage: stream <n> .*\[size <chars>\]/, prompt);
    }
  });
});
