import { strict as assert } from 'node:assert';
import {
  ElicitationBroker,
  MAX_WAITING_ELICITATIONS,
} from '../../../src/features/elicitation/core/elicitationBroker';
import { secretValues } from '../../../src/core/secrets/secrets';
import type { ElicitationPort } from '../../../src/core/ports';
import { until } from '../../support/until';
import { compileAgentPattern } from '../../../src/features/elicitation/core/agentPattern';
import type { AgentSession } from '../../../src/core/session/agentSession';
import {
  entriesOf,
  firstTurn,
  RecordingLogger,
  startTestAgent,
  type TestAgent,
  text,
} from '../support/testAgent';

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

/** The storm of the hostile agent: 5,000 forms in one turn. */
const STORM = 5000;

describe('elicitation over real stdio', () => {
  let agent: TestAgent;
  let broker: ElicitationBroker;

  beforeEach(async () => {
    broker = new ElicitationBroker(new RecordingLogger(), compileAgentPattern);
    agent = await startTestAgent({ elicitation: broker });
  });
  afterEach(async () => {
    broker.dispose();
    await agent.stop();
  });

  it('is advertised (form and URL) only by a client with an elicitation port', async () => {
    const without = await startTestAgent();
    try {
      const session = await without.session();
      await session.prompt([text('elicit form')]);
      assert.equal(reply(session), 'elicitation not advertised (form)');
      await session.prompt([text('elicit url')]);
      assert.equal(reply(session), 'elicitation not advertised (url)');
    } finally {
      await without.stop();
    }
  });

  it('answers a form with the values the user entered', async () => {
    const session = await agent.session();
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
    const session = await agent.session();
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
    const session = await agent.session();
    const running = session.prompt([text('elicit form')]);
    await opened(broker);
    await session.cancel();
    const turn = await running;
    assert.equal(turn.status, 'cancelled');
    assert.deepEqual(broker.pending(), []);
  });

  it('cancels an open form when the session is closed', async () => {
    const session = await agent.session();
    void session.prompt([text('elicit form')]);
    await opened(broker);
    session.dispose();
    assert.deepEqual(broker.pending(), []);
  });

  it('settles the form when the agent cancels its request', async () => {
    const session = await agent.session();
    const running = session.prompt([text('elicit cancel 100')]);
    await opened(broker);
    const turn = await running;
    assert.equal(turn.status, 'completed');
    assert.deepEqual(broker.pending(), []);
    // The client answered `cancel` to the cancelled request (or the SDK's request-cancelled error).
    assert.match(reply(session), /^elicitation (cancel|error -32800)/);
  });

  it('shows a URL with its host and accepts it once the user agrees', async () => {
    const session = await agent.session();
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
      const session = await agent.session();
      await session.prompt([text(`elicit url ${url}`)]);
      assert.match(reply(session), /^elicitation error -32602: .*Elicitation refused/);
      assert.deepEqual(broker.pending(), []);
    });
  }

  for (const [kind, why] of [
    ['fields', /form's schema .*more than 40 fields/],
    ['deep', /nested deeper than 12 levels/],
    ['huge', /larger than 64000 characters/],
    ['backreference', /the a field's pattern uses a backreference, which this client does not run/],
    ['lookaround', /the a field's pattern uses lookahead or lookbehind, which this client does not run/],
    ['type', /form's schema is not one this client can show at properties\.nested/],
  ] as const) {
    it(`refuses a hostile schema (${kind}) with a JSON-RPC error saying why`, async () => {
      const { session, turn } = await firstTurn(agent, `elicit hostile ${kind}`);
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

  it('shows a form whose pattern backtracks on other engines, and refuses its default at once', async () => {
    const session = await agent.session();
    const running = session.prompt([text('elicit hostile regex')]);
    await opened(broker);
    const form = broker.pending()[0]?.elicitation;
    assert.ok(form?.mode === 'form');
    const field = form.fields[0];
    assert.ok(field?.kind === 'text');
    assert.equal(field.pattern, '^((a)+)+$');
    const refused = broker.answer(form.key, { action: 'accept', values: { a: field.default ?? '' } });
    assert.deepEqual(refused, {
      ok: false,
      reason: 'invalid',
      problems: { a: 'A does not have the expected form.' },
    });
    assert.deepEqual(broker.answer(form.key, { action: 'accept', values: { a: 'aaaa' } }), { ok: true });
    await running;
    assert.equal(reply(session), 'elicitation accept {"a":"aaaa"}');
  });

  it(`lets ${MAX_WAITING_ELICITATIONS} questions of a storm wait and refuses the rest with an error the agent gets`, async function () {
    this.timeout(90_000);
    // The broker behind a port that counts its refusals, so the test answers once every request arrived.
    let refused = 0;
    const counting: ElicitationPort = {
      request: (request, signal) => {
        try {
          return broker.request(request, signal);
        } catch (error) {
          refused++;
          throw error;
        }
      },
    };
    const stormy = await startTestAgent({ elicitation: counting });
    try {
      const session = await stormy.session();
      const changes: boolean[] = [];
      const subscription = broker.onDidChange(({ settled }) => changes.push(settled));
      const running = session.prompt([text(`elicit storm ${STORM}`)]);
      await until(
        () => refused === STORM - MAX_WAITING_ELICITATIONS,
        'every request refused or waiting',
        60_000,
      );
      assert.equal(broker.pending(session.id).length, MAX_WAITING_ELICITATIONS);
      for (const question of broker.pending()) {
        broker.answer(question.elicitation.key, { action: 'decline' });
      }
      await running;
      subscription.dispose();
      assert.equal(
        reply(session),
        `elicitation storm: ${MAX_WAITING_ELICITATIONS} answered (decline), ${STORM - MAX_WAITING_ELICITATIONS} refused: ` +
          `elicitation error -32000: Elicitation refused: ${MAX_WAITING_ELICITATIONS} questions of this session already wait for the user. data {"reason":"too_many"}`,
      );
      // Only the questions that waited were ever announced: a refused one costs the views nothing.
      assert.deepEqual(
        [changes.filter((settled) => !settled).length, changes.filter((settled) => settled).length],
        [MAX_WAITING_ELICITATIONS, MAX_WAITING_ELICITATIONS],
      );
      // Another session may still ask.
      const other = await stormy.session();
      const asking = other.prompt([text('elicit form')]);
      await until(() => broker.pending(other.id).length === 1, "the other session's question");
      broker.cancelAll(other.id);
      await asking;
    } finally {
      await stormy.stop();
    }
  });

  it("scrubs secret values from the form's texts and refuses a URL that carries one", async () => {
    const token = 'ghp_SECRETTOKEN1234567890';
    secretValues.add('GITHUB_TOKEN', token);
    try {
      const session = await agent.session();
      const running = session.prompt([text(`elicit quoting ${token}`)]);
      await opened(broker);
      const shown = JSON.stringify(broker.pending());
      assert.ok(!shown.includes(token), shown);
      assert.equal(shown.split('‹secret GITHUB_TOKEN›').length - 1, 6, shown);
      broker.cancelAll();
      await running;
      await session.prompt([text(`elicit url https://evil.example/collect?t=${token}`)]);
      assert.match(reply(session), /Elicitation refused: the URL carries a secret value/);
      assert.deepEqual(broker.pending(), []);
    } finally {
      secretValues.clear();
    }
  });
});
