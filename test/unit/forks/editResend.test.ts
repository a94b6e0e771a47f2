import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { transcriptAsMarkdown } from '../../../src/chat/transcriptMarkdown';
import { transcriptBefore } from '../../../src/features/forks/chat/forkStart';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import type { NodeWorkspaceChanges } from '../support/nodeWorkspaceChanges';
import { gitChangeReview } from '../support/oneStore';

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
    chat = await chat.restarted({ agents: [testAgent('a')] });
    await chat.controller.restored;
    const summary = chat.controller.chatList().find((c) => c.chatId === fork);
    assert.equal(summary?.forkOf !== undefined, true);
    await chat.controller.switchChat(fork);
    assert.match(
      chat.transcript(),
      /^user:one\|agent:You said: one\|user:two again\|agent:You said: two again/,
    );
  });

  it('with "restore the files first", Cancel in the restore dialog forks nothing and sends nothing; OK restores, forks and sends', async () => {
    let port: NodeWorkspaceChanges | undefined;
    chat = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) => gitChangeReview(dir, storage, (made) => (port = made)),
    });
    const file = path.join(chat.dir, 'a.txt');
    writeFileSync(file, 'v0\n');
    await chat.ready();
    await chat.send('own write a.txt v1');
    await until(() => chat.controller.viewState().chat?.thread.turns[0]?.changes?.live === false, 'the card');
    const origin = chat.controller.windowChatId;
    const transcript = chat.transcript();
    const edit = {
      type: 'edit_resend' as const,
      entryId: userEntry('own write a.txt v1'),
      restoreCheckpoint: true,
      text: 'own write a.txt edited',
    };

    port!.answer = false;
    await chat.controller.handleMessage(edit);
    assert.equal(port!.confirmations.length, 1, 'the restore was asked');
    assert.equal(chat.controller.windowChatId, origin, 'no fork');
    assert.equal(chat.controller.chatList().length, 1);
    assert.equal(chat.transcript(), transcript, 'nothing sent');
    assert.equal(readFileSync(file, 'utf8'), 'v1', 'nothing restored');
    assert.deepEqual(chat.view.of('error'), [], 'a cancel is not an error');
    assert.equal(
      chat.view.of('send_cancelled').length,
      1,
      'the view is told: the edit goes back to the composer',
    );

    port!.answer = true;
    await chat.controller.handleMessage(edit);
    assert.notEqual(chat.controller.windowChatId, origin, 'forked');
    await until(
      () => /agent:wrote a\.txt/.test(chat.transcript()),
      'the edited message answered in the fork',
    );
    assert.equal(readFileSync(file, 'utf8'), 'edited', 'restored, then written by the resent message');
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
