import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { ChatHarness, testAgent } from './support/chatHarness';

describe('chat: choosing the folder of a new chat in a multi-root workspace', () => {
  let chat: ChatHarness;
  afterEach(() => chat.dispose());

  const twoFolders = (dir: string): string[] => {
    const second = path.join(dir, 'second');
    mkdirSync(second);
    return [dir, second];
  };

  /** The cwd and other roots the agent has for the active chat's session (from its session/list). */
  async function agentPlace(): Promise<{ cwd?: string; sessionId?: string }> {
    await chat.controller.handleMessage({ type: 'list_agent_sessions' });
    const group = chat.view.of('agent_sessions').at(-1)?.groups[0];
    const row = group?.sessions.find((session) => session.chatId === chat.controller.windowChatId);
    return { ...(row ? { cwd: row.cwd, sessionId: row.sessionId } : {}) };
  }

  /** A ready chat in the two folders whose empty chat is moved to the second; resolves with that folder. */
  async function chatInSecondFolder(): Promise<string> {
    chat = new ChatHarness({ agents: [testAgent('a')], folders: twoFolders });
    await chat.ready();
    const second = path.join(chat.dir, 'second');
    await chat.controller.handleMessage({ type: 'set_chat_folder', folder: second });
    return second;
  }

  it('runs an empty chat’s agent in the folder picked, and keeps it once the chat has messages (and in a fork)', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')], folders: twoFolders });
    await chat.ready();
    const second = path.join(chat.dir, 'second');
    assert.equal(chat.controller.viewState().chat?.cwd, undefined, 'the first folder by default');
    assert.equal((await agentPlace()).cwd, chat.dir);

    await chat.controller.handleMessage({ type: 'set_chat_folder', folder: second });
    assert.equal(chat.controller.viewState().chat?.cwd, second);
    await chat.send('hello');
    assert.equal((await agentPlace()).cwd, second, 'the new session runs in the folder picked');
    assert.deepEqual(chat.view.of('error'), []);

    await chat.controller.handleMessage({ type: 'set_chat_folder', folder: chat.dir });
    assert.match(chat.view.of('error').at(-1)?.message ?? '', /keeps its folder/);
    await chat.controller.handleMessage({ type: 'set_chat_folder', folder: '/elsewhere' });
    assert.match(chat.view.of('error').at(-1)?.message ?? '', /not a folder of this workspace/);

    const entryId = chat.controller.viewState().chat?.thread.entries[0]?.id ?? '';
    await chat.controller.handleMessage({ type: 'edit_resend', entryId, text: 'hello there' });
    assert.equal(chat.controller.viewState().chat?.cwd, second, 'the fork keeps the folder');
    assert.equal((await agentPlace()).cwd, second);
  });

  it('opens an agent session of another workspace folder in that folder', async () => {
    const second = await chatInSecondFolder();
    await chat.send('in the second folder');
    const { sessionId } = await agentPlace();
    assert.ok(sessionId);
    // Our chat goes (the agent keeps its session); opened again from the list, it goes on in its folder.
    await chat.controller.deleteChat(chat.controller.windowChatId);
    await chat.controller.handleMessage({ type: 'list_agent_sessions' });
    await chat.controller.handleMessage({ type: 'open_agent_session', agentId: 'a', sessionId });
    assert.deepEqual(chat.view.of('error'), []);
    assert.equal(chat.controller.viewState().chat?.cwd, second);
    assert.match(chat.transcript(), /^user:in the second folder\|agent:You said: in the second folder$/);
  });

  it('starts a new chat in the active editor’s folder', async () => {
    let active: string | undefined;
    chat = new ChatHarness({ agents: [testAgent('a')], folders: twoFolders, activeFolder: () => active });
    await chat.ready();
    active = path.join(chat.dir, 'second');
    await chat.controller.newChat();
    assert.equal(chat.controller.viewState().chat?.cwd, active);
    assert.equal((await agentPlace()).cwd, active);
    active = '/not/a/workspace/folder';
    await chat.controller.newChat();
    assert.equal(
      chat.controller.viewState().chat?.cwd,
      undefined,
      'a folder outside the workspace is not taken',
    );
  });

  it('survives a restart: the chosen folder is journaled with the chat', async () => {
    const second = await chatInSecondFolder();
    await chat.send('hello');
    const chatId = chat.controller.windowChatId;
    const storageDir = chat.storageDir;
    const dir = chat.dir;
    await chat.dispose({ keepStorage: true });
    mkdirSync(second, { recursive: true });
    chat = new ChatHarness({ agents: [testAgent('a')], storageDir, folders: () => [dir, second] });
    await chat.controller.restored;
    await chat.controller.switchChat(chatId);
    assert.equal(chat.controller.viewState().chat?.cwd, second);
    rmSync(dir, { recursive: true, force: true });
  });
});
