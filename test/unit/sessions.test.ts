import { strict as assert } from 'node:assert';
import { NotSupportedError } from '../../src/core/connection/errors';
import { entriesOf, listedIds, text, useTestAgents } from './support/testAgent';

describe('session lifecycle: load, resume, list, close', () => {
  const agents = useTestAgents();

  it('replays the history with session/load in a new agent process', async () => {
    let agent = await agents.startKeepingSessions();
    const first = await agent.session();
    await first.prompt([text('stream 2')]);
    await first.prompt([text('hello there')]);
    const sessionId = first.id;
    await agent.stop();

    agent = await agents.startKeepingSessions();
    const loaded = await agent.client.loadSession(sessionId, { cwd: agent.dir });
    assert.equal(loaded.id, sessionId);
    assert.deepEqual(entriesOf(loaded), [
      { kind: 'user', text: 'stream 2', attachments: [] },
      { kind: 'agent', text: 'chunk 1 chunk 2 ', attachments: [] },
      { kind: 'user', text: 'hello there', attachments: [] },
      { kind: 'agent', text: 'You said: hello there', attachments: [] },
    ]);
    assert.equal(loaded.thread.snapshot().state.modes?.currentModeId, 'ask');
    // The loaded session takes new turns.
    const turn = await loaded.prompt([text('stream 1')]);
    assert.deepEqual(entriesOf(loaded).slice(4), [
      { kind: 'user', turnId: turn.id, text: 'stream 1', attachments: [] },
      { kind: 'agent', turnId: turn.id, text: 'chunk 1 ', attachments: [] },
    ]);
  });

  it('rejects loading an unknown session as not found and routes nothing to it', async () => {
    const agent = await agents.start();
    await assert.rejects(agent.client.loadSession('sess-unknown', { cwd: agent.dir }), { kind: 'not_found' });
    assert.equal(agent.client.session('sess-unknown'), undefined);
  });

  it('resumes a session without a replay', async () => {
    let agent = await agents.startKeepingSessions();
    const first = await agent.session();
    await first.prompt([text('stream 1')]);
    await agent.stop();
    agent = await agents.startKeepingSessions();
    const resumed = await agent.client.resumeSession(first.id, { cwd: agent.dir });
    assert.deepEqual(entriesOf(resumed), []);
    assert.equal((await resumed.prompt([text('stream 1')])).status, 'completed');
  });

  it('lists and closes sessions', async () => {
    const agent = await agents.start();
    const a = await agent.session();
    const b = await agent.session();
    assert.deepEqual((await listedIds(agent)).sort(), [a.id, b.id].sort());
    await agent.client.closeSession(a.id);
    assert.equal(agent.client.session(a.id), undefined);
    assert.deepEqual(await listedIds(agent), [b.id]);
  });

  it('says clearly what an agent without those capabilities does not support', async () => {
    const agent = await agents.start({ env: { TEST_AGENT_MINIMAL: '1' } });
    const session = await agent.session();
    await assert.rejects(agent.client.loadSession(session.id, { cwd: agent.dir }), (error: unknown) => {
      assert.ok(error instanceof NotSupportedError);
      assert.equal(
        error.message,
        'Loading a session (session/load) is not supported by Demo agent (offline).',
      );
      return true;
    });
    await assert.rejects(agent.client.resumeSession(session.id, { cwd: agent.dir }), {
      kind: 'not_supported',
    });
    await assert.rejects(agent.client.listSessions(), { kind: 'not_supported' });
    await assert.rejects(agent.client.closeSession(session.id), { kind: 'not_supported' });
  });

  it('keeps two sessions streaming at the same time apart', async () => {
    const agent = await agents.start({ env: { TEST_AGENT_CHUNK_DELAY_MS: '5' } });
    const a = await agent.session();
    const b = await agent.session();
    const [turnA, turnB] = await Promise.all([
      a.prompt([text('stream 20')]),
      b.prompt([text('stream 3 thoughts')]),
    ]);
    const twenty = Array.from({ length: 20 }, (_, i) => `chunk ${i + 1} `).join('');
    assert.deepEqual(entriesOf(a), [
      { kind: 'user', turnId: turnA.id, text: 'stream 20', attachments: [] },
      { kind: 'agent', turnId: turnA.id, text: twenty, attachments: [] },
    ]);
    assert.deepEqual(entriesOf(b), [
      { kind: 'user', turnId: turnB.id, text: 'stream 3 thoughts', attachments: [] },
      { kind: 'thought', turnId: turnB.id, text: 'thinking 1 thinking 2 ', attachments: [] },
      { kind: 'agent', turnId: turnB.id, text: 'chunk 1 chunk 2 chunk 3 ', attachments: [] },
    ]);
  });
});
