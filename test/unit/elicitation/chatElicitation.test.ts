import { strict as assert } from 'node:assert';
import { ChatHarness, testAgent, until } from '../support/chatHarness';

/** The agent's last reply in the active chat. */
function lastReply(chat: ChatHarness): string {
  const entries = chat.controller.viewState().chat?.thread.entries ?? [];
  const agent = entries.filter((e) => e.kind === 'agent');
  const last = agent.at(-1);
  return last && 'text' in last ? last.text : '';
}

describe('elicitation in the chat', () => {
  let chat: ChatHarness;
  afterEach(async () => {
    await chat.dispose();
  });

  it('shows the form in the chat view, refuses an invalid answer and sends a valid one', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    const sent = chat.send('elicit form');
    await until(() => chat.view.of('elicitations').some((m) => m.items.length === 1), 'the form in the view');
    const [form] = chat.view.of('elicitations').at(-1)?.items ?? [];
    assert.equal(form?.mode, 'form');
    assert.equal(
      chat.controller.viewState().elicitations?.[0]?.key,
      form.key,
      'a new view gets it in its snapshot',
    );

    await chat.controller.handleMessage({
      type: 'answer_elicitation',
      key: form.key,
      answer: { action: 'accept', values: { name: 'x', injected: 'yes' } },
    });
    const error = chat.view.of('error').at(-1)?.message ?? '';
    assert.match(error, /The answer was not sent: .*injected was not asked for/);
    assert.equal(chat.elicitations.pending().length, 1, 'an invalid answer leaves the form open');

    await chat.controller.handleMessage({
      type: 'answer_elicitation',
      key: form.key,
      answer: { action: 'accept', values: { name: 'web', email: 'a@b.io', region: 'us' } },
    });
    await sent;
    await until(() => lastReply(chat).startsWith('elicitation'), 'the agent’s reply');
    assert.equal(lastReply(chat), 'elicitation accept {"name":"web","email":"a@b.io","region":"us"}');
    assert.deepEqual(chat.view.of('elicitations').at(-1)?.items, [], 'the form went away');
  });

  it('opens the URL only when the user accepts it, and never otherwise', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    const declined = chat.send('elicit url https://example.com/declined');
    await until(() => chat.elicitations.pending().length === 1, 'the URL question');
    const first = chat.elicitations.pending()[0]?.elicitation.key ?? '';
    await chat.controller.handleMessage({
      type: 'answer_elicitation',
      key: first,
      answer: { action: 'decline' },
    });
    await declined;
    assert.deepEqual(chat.openedUrls, []);

    const accepted = chat.send('elicit url https://example.com/signin');
    await until(() => chat.elicitations.pending().length === 1, 'the second URL question');
    const second = chat.elicitations.pending()[0]?.elicitation.key ?? '';
    await chat.controller.handleMessage({
      type: 'answer_elicitation',
      key: second,
      answer: { action: 'accept' },
    });
    await accepted;
    assert.deepEqual(chat.openedUrls, ['https://example.com/signin']);
  });

  it('cancels the form at Stop', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    void chat.send('elicit form');
    await until(() => chat.elicitations.pending().length === 1, 'the form');
    await chat.controller.handleMessage({ type: 'cancel' });
    await until(() => chat.elicitations.pending().length === 0, 'the form settled');
    assert.deepEqual(chat.view.of('elicitations').at(-1)?.items, []);
  });
});
