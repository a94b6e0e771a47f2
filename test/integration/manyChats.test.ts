/**
 * Issue 5: many chats — chats running at once stay separate; the chat list with titles, rename and
 * delete.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { DEMO_AGENT_ID, DEMO_AGENT_NAME, eventually } from './support/harness';
import { useDemoChats } from './support/demoChats';
import { unique } from './support/demoSessions';

describe('sessions: many chats at once and the chat list (issue 5)', () => {
  // Permission requests in these tests are answered inline.
  const suite = useDemoChats({ chatView: true, clearRules: true });

  it('runs two chats at once and keeps them separate', async () => {
    const first = suite.chatId();
    const hanging = await suite.begin('hang');
    await eventually('the first chat to say "waiting "', () => suite.replyOf(hanging.turnId) === 'waiting ');

    const second = await suite.freshChat();
    const streamed = await suite.ask('stream 30');
    assert.equal(streamed.turn.status, 'completed');
    assert.equal(streamed.reply, Array.from({ length: 30 }, (_, i) => `chunk ${i + 1} `).join(''));
    assert.deepEqual(
      suite.transcript(),
      [
        ['user', 'stream 30'],
        ['agent', streamed.reply],
      ],
      'the second chat holds only its own turn',
    );
    const running = Object.fromEntries(suite.api.chat.chatList().map((chat) => [chat.chatId, chat.running]));
    assert.equal(running[first], true, 'the first chat still runs');
    assert.equal(running[second], false);

    await suite.api.chat.switchChat(first);
    assert.deepEqual(
      suite.transcript(),
      [
        ['user', 'hang'],
        ['agent', 'waiting '],
      ],
      'the first chat holds only its own turn',
    );
    await suite.api.chat.cancel();
    const { turn } = await hanging.done;
    assert.equal(turn.status, 'cancelled');
    await suite.api.chat.switchChat(second);
    assert.equal(suite.thread().turns.at(-1)?.status, 'completed', 'cancelling one chat leaves the other');
  });

  it('lists chats with titles, renames and deletes them', async () => {
    const first = suite.chatId();
    const longPrompt = `a question that is long enough to need cutting down in the chat list ${unique('x')}`;
    await suite.ask(longPrompt);
    const second = await suite.freshChat();
    assert.equal(suite.api.chat.chatList().find((chat) => chat.chatId === second)?.title, 'New chat');
    await suite.ask('title');

    const list = suite.api.chat.chatList();
    assert.equal(list[0]?.chatId, second, 'most recently used first');
    assert.equal(list[0]?.title, 'Test session title', "the agent's session title names the chat");
    assert.equal(list[0]?.agentId, DEMO_AGENT_ID);
    assert.equal(list[0]?.agentLabel, DEMO_AGENT_NAME);
    const firstTitle = list.find((chat) => chat.chatId === first)?.title;
    assert.equal(firstTitle, `${longPrompt.slice(0, 59)}…`, 'the first message, cut to 60 characters');

    await suite.api.chat.handleMessage({ type: 'rename_chat', chatId: first, title: '  Renamed chat  ' });
    assert.equal(suite.api.chat.chatList().find((chat) => chat.chatId === first)?.title, 'Renamed chat');
    await suite.api.chat.handleMessage({ type: 'rename_chat', chatId: first, title: '' });
    assert.equal(
      suite.api.chat.chatList().find((chat) => chat.chatId === first)?.title,
      `${longPrompt.slice(0, 59)}…`,
      'an empty name goes back to the derived title',
    );

    // Deleting the active chat moves to the most recent other chat.
    await suite.api.chat.handleMessage({ type: 'delete_chat', chatId: second });
    assert.equal(
      suite.api.chat.chatList().some((chat) => chat.chatId === second),
      false,
    );
    assert.equal(suite.chatId(), suite.api.chat.chatList()[0]?.chatId);
    await suite.api.chat.handleMessage({ type: 'delete_chat', chatId: first });
    assert.equal(
      suite.api.chat.chatList().some((chat) => chat.chatId === first),
      false,
    );
  });

  it('sends a message sent right after the New Chat command to the new chat', async () => {
    await suite.ask('echo in the chat left');
    const left = suite.chatId();
    // Not awaited: a user clicks the view title's New Chat and types at once, while the command still
    // reveals the view.
    const created = vscode.commands.executeCommand('acpAgents.newChat');
    const sent = suite.api.chat.send('echo right after New Chat');
    await Promise.all([created, sent]);
    assert.notEqual(suite.chatId(), left, 'New Chat moved the view');
    assert.deepEqual(suite.transcript()[0], ['user', 'echo right after New Chat'], 'the message is in the new chat');
    await suite.api.chat.switchChat(left);
    assert.deepEqual(
      suite.transcript().map(([role]) => role),
      ['user', 'agent'],
      'the chat left holds only its own turn',
    );
  });
});
