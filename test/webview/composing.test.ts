import assert from 'node:assert/strict';
import { ended, events, snapshot, started, turn } from './support/builders';
import { useChatPages } from './support/suite';

describe('webview: the host hears when the user starts writing (the checkpoint is taken ahead of Send)', () => {
  const chat = useChatPages();

  it('says so when the message box is clicked, once per turn while typing, and never while a turn runs', async () => {
    const page = await chat.openShowing(snapshot({}));
    await page.frame();
    const input = page.page.locator('.composer-input');
    await page.frame();
    assert.equal(
      (await page.postedOf('composing')).length,
      0,
      'the chat focusing its message box is not the user',
    );
    await page.clearPosted();

    await input.click();
    await input.pressSequentially('Fix it');
    assert.equal(
      (await page.postedOf('composing')).length,
      1,
      'the click said it; typing on did not repeat it',
    );

    await page.host(events(started(turn('t1'))));
    await page.frame();
    await page.clearPosted();
    await input.pressSequentially(' please');
    await input.click();
    assert.equal((await page.postedOf('composing')).length, 0, 'not while the agent may still change files');

    await page.host(events(ended(turn('t1', { status: 'completed', endedAt: 1_700_000_001_000 }))));
    await page.frame();
    await input.pressSequentially('!');
    await input.pressSequentially('!');
    assert.equal((await page.postedOf('composing')).length, 1, 'the turn ended: typing says it again, once');
    page.assertClean();
  });
});
