/**
 * Status for every chat outside its view: a hidden chat asking for permission raises the view's badge
 * and the status-bar entry ("1 waiting"); a turn that ends hidden is announced with a button that opens
 * the chat (`acpAgents.notifications.chatStatus`: whenHidden); `never` announces nothing.
 */
import { strict as assert } from 'node:assert';
import { eventually } from './support/harness';
import { useDemoChats } from './support/demoChats';

describe('chat status: badge, status bar and notifications for chats not on screen', () => {
  const suite = useDemoChats({ hideChatView: true, closeEditors: true });

  it('a hidden chat waiting for permission shows on the badge and the status bar; its end is announced and Open Chat shows it', async () => {
    await suite.settings.set('notifications.chatStatus', 'whenHidden');
    let during: { badge: number; text: string } | undefined;
    suite.prompts.answerModal(async () => {
      await eventually('the badge to count the waiting chat', () => suite.api.chatActivity.badge === 1);
      during = { badge: suite.api.chatActivity.badge, text: suite.api.chatActivity.text };
      return 'Allow once';
    });
    // The wait is announced (dismissed here), then the end (opened from its notification).
    suite.prompts.answerNotify(undefined, 'Open Chat');
    const chatId = suite.api.chat.windowChatId;
    await suite.ask('tool');
    assert.equal(during?.badge, 1);
    assert.equal(during?.text, '$(bell-dot) 1 waiting', 'a chat waiting for you is not counted as running');
    const [waits, finished] = await suite.prompts.waitFor('notify', 2);
    assert.equal(waits!.message, '“tool” waits for you (permission: Edit README.md).');
    assert.equal(finished!.message, '“tool” finished.');
    assert.deepEqual(finished!.choices, ['Open Chat']);
    await eventually(
      'Open Chat to show the chat',
      () => suite.api.sidebar.isVisible && suite.api.chat.windowChatId === chatId,
    );
    assert.equal(suite.api.chatActivity.badge, 0);
    assert.equal(suite.api.chatActivity.text, '', 'nothing runs: the entry is hidden');
  });

  it('announces nothing when set to never', async () => {
    await suite.settings.set('notifications.chatStatus', 'never');
    await suite.ask('hello');
    assert.equal(suite.prompts.questions('notify').length, 0);
  });
});
