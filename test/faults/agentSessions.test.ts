import { strict as assert } from 'node:assert';
import type { AgentDefinition } from '../../src/chat/agentSettings';
import { ChatHarness } from '../unit/support/chatHarness';
import { HOSTILE_AGENT } from './hostile';

const hostile: AgentDefinition = {
  id: 'h',
  label: 'Hostile h',
  command: process.execPath,
  args: [HOSTILE_AGENT],
  env: {},
};

describe('faults: a hostile session/list', () => {
  let chat: ChatHarness;
  afterEach(() => chat.dispose());

  it('keeps at most 200 sessions, plain bounded titles, only ids the view can open, and no oversized cursor', async () => {
    chat = new ChatHarness({ agents: [hostile] });
    await chat.ready();
    await chat.controller.handleMessage({ type: 'list_agent_sessions' });
    const group = chat.view.of('agent_sessions').at(-1)?.groups[0];
    assert.ok(group, 'a group was posted (and parsed by the view protocol)');
    assert.equal(group.error, undefined);
    assert.equal(group.sessions.length, 200);
    assert.equal(group.nextCursor, undefined, 'a 5,000-character cursor is not followed');
    const ids = group.sessions.map((session) => session.sessionId);
    assert.ok(!ids.includes('') && ids.every((id) => id.length <= 500), 'unopenable ids dropped');
    assert.ok(!ids.includes('list-2'), 'a session without a string cwd is dropped');
    assert.equal(
      group.sessions.find((s) => s.sessionId === 'list-5')?.title,
      undefined,
      'a title not a string',
    );
    assert.equal(
      group.sessions.find((s) => s.sessionId === 'list-7')?.updatedAt,
      undefined,
      'a time not a string',
    );
    for (const session of group.sessions.filter((s) => s.sessionId !== 'list-5')) {
      const title = session.title ?? '';
      assert.ok(title.length <= 200, `title of ${title.length} characters`);
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(title, /[\u0000-\u001f\u007f\u202e]/, 'no escapes, controls or bidi overrides');
      assert.match(title, /^red‹U\+202E›txt\.exe x+…$/);
    }
    assert.equal(
      group.sessions.find((s) => s.sessionId === 'list-4')?.updatedAt,
      undefined,
      'junk date dropped',
    );
    assert.equal(group.sessions.find((s) => s.sessionId === 'list-3')?.updatedAt, 0);

    // Opening one loads it into a chat named by its (bounded) title.
    await chat.controller.handleMessage({ type: 'open_agent_session', agentId: 'h', sessionId: 'list-3' });
    assert.deepEqual(chat.view.of('error'), []);
    const opened = chat.controller.chatList().find((c) => c.chatId === chat.controller.windowChatId);
    assert.ok((opened?.title.length ?? 0) <= 200);
    assert.match(opened?.title ?? '', /^red‹U\+202E›txt\.exe/);
  });
});
