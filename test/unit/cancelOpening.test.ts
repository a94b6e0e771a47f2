import { strict as assert } from 'node:assert';
import { until } from '../support/until';
import { type RecordingLogger, type TestAgent, useTestAgents } from './support/testAgent';

/** Long enough that an opening the agent was not told to cancel outlasts the assertions. */
const SLOW_OPENING = { TEST_AGENT_SESSION_DELAY_MS: '30000' };

/** Resolves once the agent wrote `line` to its stderr (logged by the client). */
function agentSaid(logger: RecordingLogger, line: string): Promise<void> {
  return until(() => logger.messages('info').includes(`[stderr] ${line}`), `the agent saying "${line}"`);
}

describe('$/cancel_request for an abandoned session opening (test agent over stdio)', () => {
  let agent: TestAgent;
  const agents = useTestAgents();

  it('tells the agent when session/new is abandoned, and stops waiting at once', async () => {
    agent = await agents.start({ env: SLOW_OPENING });
    const abandon = new AbortController();
    const opening = agent.client.newSession({ cwd: agent.dir, signal: abandon.signal });
    abandon.abort(new Error('Stopped.'));
    await assert.rejects(opening, { kind: 'cancelled' });
    await agentSaid(agent.logger, 'acp-test-agent: cancelled session/new');
  });

  /**
   * Opens (`load` or `resume`) a session an earlier agent kept, on an agent started with `env`, and abandons
   * it: the agent is told, and nothing is routed to the half-open session.
   */
  async function abandonOpening(method: 'load' | 'resume', env: Record<string, string>): Promise<void> {
    const first = await agents.startKeepingSessions();
    const { id } = await first.session();
    agent = await agents.startKeepingSessions({ env });
    const abandon = new AbortController();
    const options = { cwd: agent.dir, signal: abandon.signal };
    const opening =
      method === 'load' ? agent.client.loadSession(id, options) : agent.client.resumeSession(id, options);
    abandon.abort();
    await assert.rejects(opening, { kind: 'cancelled' });
    await agentSaid(agent.logger, `acp-test-agent: cancelled session/${method}`);
    assert.equal(agent.client.session(id), undefined);
  }

  it('tells the agent when session/load is abandoned, and routes nothing to the half-loaded session', async () => {
    await abandonOpening('load', { ...SLOW_OPENING, TEST_AGENT_NO_RESUME: '1' });
  });

  it('tells the agent when session/resume is abandoned', async () => {
    await abandonOpening('resume', SLOW_OPENING);
  });

  it('tells the agent when it is stopped with a session opening still waiting', async () => {
    agent = await agents.start({ env: SLOW_OPENING, client: { traceProtocol: true } });
    const traced = (text: string): boolean =>
      agent.logger.lines.some((line) => line.level === 'trace' && line.message.includes(text));
    const opening = agent.session();
    await until(() => traced('"session/new"'), 'session/new sent');
    const cancelled = assert.rejects(opening, { kind: 'cancelled' });
    await agent.client.stop();
    await cancelled;
    assert.ok(traced('"$/cancel_request"'), 'the cancellation went out before the agent was stopped');
  });
});
