import { strict as assert } from 'node:assert';
import type { ElicitationAnswer } from '../../../src/protocol';
import type { ChatHarness } from '../support/chatHarness';
import { testAgent, until, useReadyChats } from '../support/chatHarness';

/** The agent's last reply in the active chat. */
function lastReply(chat: ChatHarness): string {
  const entries = chat.controller.viewState().chat?.thread.entries ?? [];
  const agent = entries.filter((e) => e.kind === 'agent');
  const last = agent.at(-1);
  return last && 'text' in last ? last.text : '';
}

/** Answers the chat's question `key` as its card does. */
function answer(chat: ChatHarness, key: string, value: ElicitationAnswer): Promise<void> {
  return chat.controller.handleMessage({ type: 'answer_elicitation', key, answer: value });
}

describe('elicitation in the chat', () => {
  const readyChat = useReadyChats();

  it('shows the form in the chat view, refuses an invalid answer and sends a valid one', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    const sent = chat.send('elicit form');
    await until(() => chat.view.of('elicitation_added').length === 1, 'the form in the view');
    const form = chat.view.of('elicitation_added').at(-1)?.item;
    assert.ok(form);
    assert.equal(form.mode, 'form');
    assert.equal(
      chat.controller.viewState().elicitations?.[0]?.key,
      form.key,
      'a new view gets it in its snapshot',
    );

    await answer(chat, form.key, { action: 'accept', values: { name: 'Bad Name', injected: 'yes' } });
    // The view gets the host's verdict by field: the agent's pattern runs only on the host.
    assert.deepEqual(chat.view.of('elicitation_problems').at(-1), {
      type: 'elicitation_problems',
      chatId: chat.controller.viewState().chat?.chatId,
      key: form.key,
      problems: {
        name: 'Project name does not have the expected form.',
        email: 'Contact email is required.',
        region: 'Region is required.',
        injected: 'injected was not asked for.',
      },
    });
    assert.equal(chat.elicitations.pending().length, 1, 'an invalid answer leaves the form open');

    await answer(chat, form.key, {
      action: 'accept',
      values: { name: 'web', email: 'a@b.io', region: 'us' },
    });
    await sent;
    await until(() => lastReply(chat).startsWith('elicitation'), 'the agent’s reply');
    assert.equal(lastReply(chat), 'elicitation accept {"name":"web","email":"a@b.io","region":"us"}');
    assert.deepEqual(
      chat.view.of('elicitation_settled').map((m) => m.key),
      [form.key],
      'the form went away',
    );
    assert.deepEqual(
      chat.view.messages.filter((m) => m.type.startsWith('elicitation_')).map((m) => m.type),
      ['elicitation_added', 'elicitation_problems', 'elicitation_settled'],
      'each change is posted alone',
    );
  });

  it('opens the URL only when the user accepts it, and never otherwise', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    const declined = chat.send('elicit url https://example.com/declined');
    await until(() => chat.elicitations.pending().length === 1, 'the URL question');
    const first = chat.elicitations.pending()[0]?.elicitation.key ?? '';
    await answer(chat, first, { action: 'decline' });
    await declined;
    assert.deepEqual(chat.openedUrls, []);

    const accepted = chat.send('elicit url https://example.com/signin');
    await until(() => chat.elicitations.pending().length === 1, 'the second URL question');
    const second = chat.elicitations.pending()[0]?.elicitation.key ?? '';
    await answer(chat, second, { action: 'accept' });
    await accepted;
    assert.deepEqual(chat.openedUrls, ['https://example.com/signin']);
  });

  it('cancels the form at Stop', async () => {
    const chat = await readyChat({ agents: [testAgent('a')] });
    void chat.send('elicit form');
    await until(() => chat.elicitations.pending().length === 1, 'the form');
    await chat.controller.handleMessage({ type: 'cancel' });
    await until(() => chat.elicitations.pending().length === 0, 'the form settled');
    assert.equal(chat.view.of('elicitation_settled').length, 1);
  });

  it('posts each change of a storm alone, and lets only a few questions wait', async function () {
    this.timeout(120_000);
    const chat = await readyChat({ agents: [testAgent('a')] });
    let done = false;
    const sent = chat.send('elicit storm 5000').finally(() => (done = true));
    // The user declines whatever waits until the agent has its answers.
    while (!done) {
      await until(() => done || chat.elicitations.pending().length > 0, 'a question or the end', 60_000);
      for (const question of chat.elicitations.pending()) {
        await answer(chat, question.elicitation.key, { action: 'decline' });
      }
    }
    await sent;
    assert.match(
      lastReply(chat),
      /refused: elicitation error -32000: .*8 questions of this session already wait/,
    );
    const posted = chat.view.messages.filter((m) => m.type.startsWith('elicitation_'));
    const added = posted.filter((m) => m.type === 'elicitation_added');
    assert.ok(added.length >= 8 && added.length < 5000, `${added.length} questions shown`);
    // Linear in what was shown: no message repeats the questions already there.
    const size = (m: unknown): number => JSON.stringify(m).length;
    const biggest = Math.max(...added.map(size));
    const bytes = posted.reduce((sum, m) => sum + size(m), 0);
    assert.ok(bytes <= 2 * added.length * biggest, `${bytes} bytes posted for ${added.length} questions`);
  });
});
