import { strict as assert } from 'node:assert';
import { transcriptAsMarkdown } from '../../../src/chat/transcriptMarkdown';
import { transcriptBefore } from '../../../src/features/forks/chat/forkStart';
import { ChatHarness, testAgent, until } from '../support/chatHarness';

describe('chat: edit and resend an earlier message (a fork)', () => {
  let chat: ChatHarness;
  afterEach(() => chat.dispose());

  /** The id of the active chat's user message `text`. */
  const userEntry = (text: string): string => {
    const entry = chat.controller
      .viewState()
      .chat?.thread.entries.find((e) => e.kind === 'user' && e.text === text);
    assert.ok(entry, `a user message "${text}"`);
    return entry.id;
  };

  it('forks before the message into a new chat on a new session given the transcript up to there; the origin stays', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    for (const text of ['first', 'second', 'third']) {
      await chat.send(text);
    }
    const origin = chat.controller.windowChatId;
    const originTranscript = chat.transcript();
    const originSession = chat.controller.chatList().length;
    const before = transcriptBefore(chat.controller.viewState().chat!.thread, userEntry('second'));
    const carried = transcriptAsMarkdown(before);
    assert.match(carried, /first/);
    assert.doesNotMatch(carried, /second|third/);

    await chat.controller.handleMessage({
      type: 'edit_resend',
      entryId: userEntry('second'),
      text: 'second, edited',
    });
    const fork = chat.controller.windowChatId;
    assert.notEqual(fork, origin);
    assert.deepEqual(chat.view.of('error'), []);
    assert.equal(
      chat.transcript(),
      'user:first|agent:You said: first|user:second, edited|' +
        `agent:You said: second, edited\n- resource acp-agents:/transcripts/${fork}.md (${carried.length} chars)`,
    );
    const summary = chat.controller.chatList().find((c) => c.chatId === fork);
    assert.deepEqual(
      { title: summary?.title, forkOf: summary?.forkOf },
      { title: 'Fork of first', forkOf: origin },
    );
    assert.equal(chat.controller.chatList().length, originSession + 1);

    // The fork goes on by itself: the next prompt carries no transcript again.
    await chat.send('and on');
    assert.match(chat.transcript(), /agent:You said: and on$/);
    await chat.controller.switchChat(origin);
    assert.equal(chat.transcript(), originTranscript, 'the origin is as it was');
  });

  it('survives a restart: the fork and its origin are read back from the journal', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    await chat.send('one');
    await chat.send('two');
    await chat.controller.handleMessage({
      type: 'edit_resend',
      entryId: userEntry('two'),
      text: 'two again',
    });
    const fork = chat.controller.windowChatId;
    const storageDir = chat.storageDir;
    await chat.dispose({ keepStorage: true });
    chat = new ChatHarness({ agents: [testAgent('a')], storageDir });
    await chat.controller.restored;
    const summary = chat.controller.chatList().find((c) => c.chatId === fork);
    assert.equal(summary?.forkOf !== undefined, true);
    await chat.controller.switchChat(fork);
    assert.match(
      chat.transcript(),
      /^user:one\|agent:You said: one\|user:two again\|agent:You said: two again/,
    );
  });

  it('refuses an unknown message and a running chat, and makes no chat then', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    await chat.send('hello');
    await chat.controller.handleMessage({ type: 'edit_resend', entryId: 'nope', text: 'x' });
    assert.match(chat.view.of('error').at(-1)?.message ?? '', /no longer in the chat/);
    const running = chat.send('hang');
    await until(() => chat.controller.activeChatRunning, 'the turn running');
    await chat.controller.handleMessage({ type: 'edit_resend', entryId: userEntry('hello'), text: 'x' });
    assert.match(chat.view.of('error').at(-1)?.message ?? '', /Wait for the agent to finish/);
    assert.equal(chat.controller.chatList().length, 1);
    await chat.controller.cancel();
    await running;
  });
});
