/**
 * Status for every chat outside its view: a hidden chat asking for permission raises the view's badge
 * and the status-bar entry ("1 waiting"); a turn that ends hidden is announced with a button that opens
 * the chat (`acpAgents.notifications.chatStatus`: whenHidden); `never` announces nothing.
 */
import { strict as assert } from 'node:assert';
import type { AcpAgentsApi } from '../../src/extension';
import {
  ask,
  closeAllEditors,
  eventually,
  freshChat,
  getApi,
  hideChatView,
  installPrompts,
  Settings,
  type ScriptedPrompts,
} from './support/harness';

describe('chat status: badge, status bar and notifications for chats not on screen', () => {
  let api: AcpAgentsApi;
  let prompts: ScriptedPrompts & { restore(): void };
  const settings = new Settings();

  before(async () => {
    api = await getApi();
  });

  beforeEach(async () => {
    await hideChatView();
    prompts = installPrompts(api);
    await freshChat(api);
  });

  afterEach(async () => {
    prompts.restore();
    await settings.restore();
    await closeAllEditors();
  });

  it('a hidden chat waiting for permission shows on the badge and the status bar; its end is announced and Open Chat shows it', async () => {
    await settings.set('notifications.chatStatus', 'whenHidden');
    let during: { badge: number; text: string } | undefined;
    prompts.answerModal(async () => {
      await eventually('the badge to count the waiting chat', () => api.chatActivity.badge === 1);
      during = { badge: api.chatActivity.badge, text: api.chatActivity.text };
      return 'Allow once';
    });
    // The wait is announced (dismissed here), then the end (opened from its notification).
    prompts.answerNotify(undefined, 'Open Chat');
    const chatId = api.chat.windowChatId;
    await ask(api, 'tool');
    assert.equal(during?.badge, 1);
    assert.equal(during?.text, '$(bell-dot) 1 waiting', 'a chat waiting for you is not counted as running');
    const [waits, finished] = await prompts.waitFor('notify', 2);
    assert.equal(waits!.message, '“tool” waits for you (permission: Edit README.md).');
    assert.equal(finished!.message, '“tool” finished.');
    assert.deepEqual(finished!.choices, ['Open Chat']);
    await eventually('Open Chat to show the chat', () => api.sidebar.isVisible && api.chat.windowChatId === chatId);
    assert.equal(api.chatActivity.badge, 0);
    assert.equal(api.chatActivity.text, '', 'nothing runs: the entry is hidden');
  });

  it('announces nothing when set to never', async () => {
    await settings.set('notifications.chatStatus', 'never');
    await ask(api, 'hello');
    assert.equal(prompts.questions('notify').length, 0);
  });
});
