import { strict as assert } from 'node:assert';
import {
  agentEntry,
  entriesOf,
  firstTurn,
  recordEvents,
  text,
  useTestAgent,
  waitFor,
} from './support/testAgent';
import { middleMarker } from '../../src/core/thread/textBudget';

describe('streaming a turn over stdio', () => {
  const agent = useTestAgent();

  it('joins N text chunks into one agent message and ends the turn with end_turn', async () => {
    const session = await agent.session();
    const events = recordEvents(session);
    const turn = await session.prompt([text('stream 5')]);

    assert.equal(turn.status, 'completed');
    assert.equal(turn.stopReason, 'end_turn');
    assert.deepEqual(entriesOf(session), [
      { kind: 'user', turnId: turn.id, text: 'stream 5', attachments: [] },
      { kind: 'agent', turnId: turn.id, text: 'chunk 1 chunk 2 chunk 3 chunk 4 chunk 5 ', attachments: [] },
    ]);
    assert.deepEqual(
      events.map((event) => event.type),
      [
        'turn_started',
        'entry_added',
        'entry_added',
        'text_appended',
        'text_appended',
        'text_appended',
        'text_appended',
        'turn_ended',
      ],
    );
    const deltas = events.flatMap((event) => (event.type === 'text_appended' ? [event.text] : []));
    assert.deepEqual(deltas, ['chunk 2 ', 'chunk 3 ', 'chunk 4 ', 'chunk 5 ']);
  });

  it('keeps thoughts in their own entry before the answer', async () => {
    const { session, turn } = await firstTurn(agent, 'stream 2 thoughts');
    assert.deepEqual(entriesOf(session), [
      { kind: 'user', turnId: turn.id, text: 'stream 2 thoughts', attachments: [] },
      { kind: 'thought', turnId: turn.id, text: 'thinking 1 thinking 2 ', attachments: [] },
      { kind: 'agent', turnId: turn.id, text: 'chunk 1 chunk 2 ', attachments: [] },
    ]);
  });

  it('splits agent messages by messageId', async () => {
    const { session, turn } = await firstTurn(agent, 'stream 6 messages 3');
    assert.deepEqual(entriesOf(session).slice(1), [
      { kind: 'agent', turnId: turn.id, messageId: 'msg-1', text: 'chunk 1 chunk 2 ', attachments: [] },
      { kind: 'agent', turnId: turn.id, messageId: 'msg-2', text: 'chunk 3 chunk 4 ', attachments: [] },
      { kind: 'agent', turnId: turn.id, messageId: 'msg-3', text: 'chunk 5 chunk 6 ', attachments: [] },
    ]);
  });

  it('lands updates sent after the prompt response in their turn', async () => {
    const session = await agent.session();
    const first = await session.prompt([text('late')]);
    // The late chunk and usage may arrive just after the turn ends; they must join turn 1. Waits for
    // both to land (an event each), then checks where they landed.
    await waitFor(
      session,
      () =>
        session.thread
          .snapshot()
          .entries.some((entry) => entry.kind === 'agent' && entry.text.includes('late')) &&
        session.thread.snapshot().state.usage !== undefined,
    );
    assert.deepEqual(entriesOf(session), [
      { kind: 'user', turnId: first.id, text: 'late', attachments: [] },
      { kind: 'agent', turnId: first.id, text: 'on time late', attachments: [] },
    ]);
    assert.deepEqual(session.thread.snapshot().state.usage, { used: 10, size: 100 });

    const second = await session.prompt([text('stream 1')]);
    assert.deepEqual(entriesOf(session).slice(2), [
      { kind: 'user', turnId: second.id, text: 'stream 1', attachments: [] },
      { kind: 'agent', turnId: second.id, text: 'chunk 1 ', attachments: [] },
    ]);
  });

  it('cuts an oversized message in the middle with a visible marker, keeping its end, in bounded memory', async () => {
    await agent.restart({ client: { threadLimits: { maxMessageChars: 100_000 } } });
    const { session, turn } = await firstTurn(agent, 'big 3000000');
    assert.equal(turn.status, 'completed');
    const message = session.thread.snapshot().entries[1];
    assert.equal(message?.kind, 'agent');
    if (message?.kind !== 'agent') {
      return;
    }
    // The head (100,000), the marker, then the last 25,000 characters (a quarter of the limit).
    const marker = middleMarker(2_875_000, 100_000);
    assert.ok(message.text.startsWith('0123456789'));
    assert.equal(message.text.indexOf(marker), 100_000, message.text.slice(99_950, 100_200));
    assert.ok(
      message.text.endsWith(`${marker}${'0123456789'.repeat(2_500)}`),
      'the end of the answer is kept',
    );
    assert.equal(message.text.length, 100_000 + marker.length + 25_000);
    assert.deepEqual(message.truncated, { limit: 100_000, omittedChars: 2_875_000 });
  });

  it('streams the same text with an agent that prints stderr noise', async () => {
    await agent.restart({ env: { TEST_AGENT_STDERR_NOISE: '300000' } });
    const { session, turn } = await firstTurn(agent, 'stderr 200000');
    assert.equal(turn.status, 'completed');
    assert.deepEqual(entriesOf(session)[1], agentEntry(turn, 'noisy'));
    // The kept stderr tail is bounded (64 KiB by default) even after ~500 KB of noise.
    assert.ok(agent.client.process.stderr.text().length <= 64 * 1024);
    assert.ok(agent.client.process.stderr.droppedChars > 400_000);
  });

  it('describes non-text prompt blocks as attachments and sends them to the agent', async () => {
    const session = await agent.session();
    const turn = await session.prompt([
      text('Explain this'),
      { type: 'resource_link', uri: 'file:///project/a.ts', name: 'a.ts' },
      { type: 'resource', uri: 'file:///project/b.ts', text: 'const b = 1;', mimeType: 'text/typescript' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ]);
    assert.deepEqual(entriesOf(session), [
      {
        kind: 'user',
        turnId: turn.id,
        text: 'Explain this',
        attachments: [
          { type: 'resource_link', uri: 'file:///project/a.ts', name: 'a.ts' },
          { type: 'resource', uri: 'file:///project/b.ts', chars: 12, mimeType: 'text/typescript' },
          { type: 'image', mimeType: 'image/png', bytes: 8 },
        ],
      },
      {
        kind: 'agent',
        turnId: turn.id,
        text: 'You said: Explain this\n- resource_link file:///project/a.ts\n- resource file:///project/b.ts (12 chars)\n- image image/png (12 bytes base64)',
        attachments: [],
      },
    ]);
  });

  it('refuses a second prompt while a turn is running', async () => {
    const session = await agent.session();
    const running = session.prompt([text('hang')]);
    await assert.rejects(session.prompt([text('stream 1')]), /A turn is already running/);
    await session.cancel();
    assert.equal((await running).status, 'cancelled');
  });
});
