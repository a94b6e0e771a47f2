import { strict as assert } from 'node:assert';
import { ElicitationBroker } from '../../../src/features/elicitation/core/elicitationBroker';
import type { AgentSession } from '../../../src/core/session/agentSession';
import { RecordingLogger, entriesOf, startTestAgent, text, type TestAgent } from '../support/testAgent';

/** The agent's last reply line: what it received for its elicitation. */
function reply(session: AgentSession): string {
  const agent = entriesOf(session).filter((e) => (e as { kind: string }).kind === 'agent');
  return (agent.at(-1) as { text: string } | undefined)?.text ?? '';
}

/** Resolves once the broker has a question open; rejects when none comes. */
function opened(broker: ElicitationBroker): Promise<void> {
  return new Promise((resolve, reject) => {
    if (broker.pending().length > 0) {
      resolve();
      return;
    }
    const timer = setTimeout(() => reject(new Error('no elicitation arrived')), 5000);
    const sub = broker.onDidChange(() => {
      if (broker.pending().length > 0) {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  });
}

describe('elicitation over real stdio', () => {
  let agent: TestAgent;
  let broker: ElicitationBroker;

  beforeEach(async () => {
    broker = new ElicitationBroker(new RecordingLogger());
    agent = await startTestAgent({ elicitation: broker });
  });
  afterEach(async () => {
    broker.dispose();
    await agent.stop();
  });

  it('is advertised (form and URL) only by a client with an elicitation port', async () => {
    const without = await startTestAgent();
    try {
      const session = await without.client.newSession({ cwd: without.dir });
      await session.prompt([text('elicit form')]);
      assert.equal(reply(session), 'elicitation not advertised (form)');
      await session.prompt([text('elicit url')]);
      assert.equal(reply(session), 'elicitation not advertised (url)');
    } finally {
      await without.stop();
    }
  });

  it('answers a form with the values the user entered', async () => {
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('elicit form')]);
    await opened(broker);
    const [pending] = broker.pending(session.id);
    assert.ok(pending);
    const form = pending.elicitation;
    assert.equal(form.mode, 'form');
    assert.deepEqual(form.mode === 'form' ? form.fields.map((f) => [f.name, f.kind, f.required]) : [], [
      ['name', 'text', true],
      ['email', 'text', true],
      ['replicas', 'number', false],
      ['region', 'choice', true],
      ['notify', 'boolean', false],
    ]);
    // An invalid answer is refused and leaves the question open.
    const invalid = broker.answer(form.key, { action: 'accept', values: { name: 'Bad Name', email: 'x' } });
    assert.equal(invalid.ok, false);
    assert.deepEqual(Object.keys(invalid.ok ? {} : 'problems' in invalid ? invalid.problems : {}).sort(), [
      'email',
      'name',
      'region',
    ]);
    assert.equal(broker.pending().length, 1);
    const ok = broker.answer(form.key, {
      action: 'accept',
      values: { name: 'web-app', email: 'a@b.io', replicas: 3, region: 'eu', notify: false },
    });
    assert.deepEqual(ok, { ok: true });
    const turn = await running;
    assert.equal(turn.status, 'completed');
    assert.equal(
      reply(session),
      'elicitation accept {"name":"web-app","email":"a@b.io","replicas":3,"region":"eu","notify":false}',
    );
    // Exactly once: a second answer finds nothing pending.
    assert.deepEqual(broker.answer(form.key, { action: 'decline' }), { ok: false, reason: 'not_pending' });
  });

  it('declines and cancels at the user’s word', async () => {
    const session = await agent.client.newSession({ cwd: agent.dir });
    for (const action of ['decline', 'cancel'] as const) {
      const running = session.prompt([text('elicit form')]);
      await opened(broker);
      const key = broker.pending()[0]?.elicitation.key ?? '';
      assert.deepEqual(broker.answer(key, { action }), { ok: true });
      await running;
      assert.equal(reply(session), `elicitation ${action}`);
    }
  });

  it('cancels an open form at Stop', async () => {
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('elicit form')]);
    await opened(broker);
    await session.cancel();
    const turn = await running;
    assert.equal(turn.status, 'cancelled');
    assert.deepEqual(broker.pending(), []);
  });

  it('cancels an open form when the session is closed', async () => {
    const session = await agent.client.newSession({ cwd: agent.dir });
    void session.prompt([text('elicit form')]);
    await opened(broker);
    session.dispose();
    assert.deepEqual(broker.pending(), []);
  });

  it('settles the form when the agent cancels its request', async () => {
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('elicit cancel 100')]);
    await opened(broker);
    const turn = await running;
    assert.equal(turn.status, 'completed');
    assert.deepEqual(broker.pending(), []);
    // The client answered `cancel` to the cancelled request (or the SDK's request-cancelled error).
    assert.match(reply(session), /^elicitation (cancel|error -32800)/);
  });

  it('shows a URL with its host and accepts it once the user agrees', async () => {
    const session = await agent.client.newSession({ cwd: agent.dir });
    const running = session.prompt([text('elicit url https://login.example.com/oauth?x=1')]);
    await opened(broker);
    const pending = broker.pending()[0]?.elicitation;
    assert.equal(pending?.mode, 'url');
    assert.equal(pending.mode === 'url' ? pending.host : '', 'login.example.com');
    broker.answer(pending.key, { action: 'accept' });
    await running;
    assert.equal(reply(session), 'elicitation accept');
  });

  for (const url of [
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,hi',
    'https://u:p@example.com/',
  ]) {
    it(`refuses to show the URL ${url}`, async () => {
      const session = await agent.client.newSession({ cwd: agent.dir });
      await session.prompt([text(`elicit url ${url}`)]);
      assert.match(reply(session), /^elicitation error -32602: .*Elicitation refused/);
      assert.deepEqual(broker.pending(), []);
    });
  }

  for (const [kind, why] of [
    ['fields', /form's schema .*more than 40 fields/],
    ['deep', /nested deeper than 12 levels/],
    ['huge', /larger than 64000 characters/],
    ['regex', /pattern repeats a repeated group/],
    ['type', /form's schema is not one this client can show at properties\.nested/],
  ] as const) {
    it(`refuses a hostile schema (${kind}) with a JSON-RPC error saying why`, async () => {
      const session = await agent.client.newSession({ cwd: agent.dir });
      const turn = await session.prompt([text(`elicit hostile ${kind}`)]);
      assert.equal(turn.status, 'completed');
      assert.match(reply(session), /^elicitation error -32602: /);
      assert.match(reply(session), why);
      assert.deepEqual(broker.pending(), []);
      // The agent is still there and answers the next prompt.
      const next = await session.prompt([text('hello')]);
      assert.equal(next.status, 'completed');
      assert.equal(reply(session), 'You said: hello');
    });
  }
});
