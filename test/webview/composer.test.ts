import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import {
  added,
  ended,
  events,
  message,
  sessionState,
  snapshot,
  started,
  status,
  turn,
} from './support/builders';
import type { Locator } from 'playwright-core';
import type { ChatPage } from './support/chatPage';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

const COMMANDS = sessionState({
  commands: [
    { name: 'explain', description: 'Explain the selected code', inputHint: 'what to explain' },
    { name: 'fix', description: 'Fix a problem' },
    { name: 'test', description: 'Write tests' },
  ],
});

describe('webview: composer', () => {
  const chat = useChatPages();

  /** A fresh chat page (no turns yet) and its composer's text field. */
  async function openComposer(): Promise<{ page: ChatPage; input: Locator }> {
    const page = await chat.openShowing(snapshot());
    return { page, input: page.page.locator('.composer-input') };
  }

  it('sends the trimmed text once on Enter, even on a double Enter', async () => {
    const { page, input } = await openComposer();
    await input.fill('  Explain this repo  ');
    await input.press('Enter');
    await input.press('Enter');
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'Explain this repo' }]);
    assert.equal(await input.inputValue(), '');
    await input.fill('second message before the host answered');
    await input.press('Enter');
    assert.equal((await page.postedOf('send')).length, 1, 'locked until the turn starts');
    await page.host(events(started(turn('t1')), added(message('user', 'e1', 'Explain this repo'))));
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    await input.press('Enter');
    assert.equal((await page.postedOf('send')).length, 2);
  });

  it('grows with its lines and is one line high again once the message is sent', async () => {
    const { input } = await openComposer();
    const height = () => input.evaluate((box) => box.getBoundingClientRect().height);
    await input.pressSequentially('x');
    const oneLine = await height();
    await input.fill('one\ntwo\nthree\nfour');
    // The input event is what grows it (fill sets the value and fires it).
    const fourLines = await height();
    assert.ok(fourLines > oneLine * 2, `four lines ${fourLines} px, one line ${oneLine} px`);
    await input.press('Enter');
    assert.equal(await input.inputValue(), '');
    assert.equal(await height(), oneLine, 'back to one line after Send');
  });

  it('inserts a newline on Shift+Enter and ignores empty input', async () => {
    const { page, input } = await openComposer();
    await input.press('Enter');
    await input.fill('   ');
    await input.press('Enter');
    await input.fill('line one');
    await input.press('Shift+Enter');
    await input.pressSequentially('line two');
    assert.equal(await input.inputValue(), 'line one\nline two');
    assert.equal((await page.postedOf('send')).length, 0);
  });

  it('ignores Enter that confirms an IME composition', async () => {
    const { page, input } = await openComposer();
    await input.fill('にほんご');
    await input.evaluate((element) => {
      element.dispatchEvent(new CompositionEvent('compositionstart'));
      element.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true }));
      element.dispatchEvent(new CompositionEvent('compositionend'));
      element.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, bubbles: true }));
    });
    assert.equal((await page.postedOf('send')).length, 0);
    await input.press('Enter');
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'にほんご' }]);
  });

  it('disables sending during a running turn and shows Stop, which posts cancel', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    const send = page.page.locator('.send-button');
    const stop = page.page.locator('.stop-button');
    assert.equal(await stop.isVisible(), true);
    assert.equal(await send.isVisible(), false);
    const input = await page.send('queued idea');
    assert.equal((await page.postedOf('send')).length, 0, 'not sent while the turn runs');
    assert.equal(await input.inputValue(), '', 'the text moved to the queue');
    assert.equal(await page.page.locator('.queued-text').inputValue(), 'queued idea');
    assert.equal(await stop.getAttribute('aria-label'), 'Stop the agent');
    await stop.click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'cancel' });
    await page.host(events(ended(turn('t1', { status: 'cancelled' }))));
    assert.equal(await stop.isVisible(), false);
    assert.equal(await send.isVisible(), true);
    assert.equal((await page.postedOf('send')).length, 0, 'a cancelled turn does not release the queue');
    await input.fill('typed after the cancel');
    assert.equal(await send.getAttribute('disabled'), null);
    await send.click();
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'typed after the cancel' }]);
  });

  it('offers Stop while a send waits for its turn (the session opening), which posts cancel', async () => {
    const page = await chat.openShowing(snapshot());
    const send = page.page.locator('.send-button');
    const stop = page.page.locator('.stop-button');
    await page.page.locator('.composer-input').fill('sent while the session opens');
    await page.page.locator('.composer-input').press('Enter');
    assert.equal(await stop.isVisible(), true);
    assert.equal(await send.isVisible(), false);
    await page.page.screenshot({ path: `${OUT}/composer-stop-while-sending.png` });
    await stop.click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'cancel' });
    // The host keeps the message as a cancelled turn.
    await page.host(
      events(started(turn('t1')), added(message('user', 'e1', 'sent while the session opens'))),
    );
    await page.host(events(ended(turn('t1', { status: 'cancelled' }))));
    assert.equal(await stop.isVisible(), false);
    assert.equal(await send.isVisible(), true);
  });

  it('gives the text back when the host cannot send it', async () => {
    const { page, input } = await openComposer();
    await input.fill('will fail');
    await input.press('Enter');
    assert.equal(await input.inputValue(), '');
    await page.host({ type: 'error', message: 'A turn is already running; wait for it or press Stop.' });
    assert.equal(await input.inputValue(), 'will fail');
    assert.match(await page.page.locator('.alert').innerText(), /already running/);
    await input.press('Enter');
    assert.equal((await page.postedOf('send')).length, 2, 'unlocked again');
  });

  it('keeps a prompt that waits for sign-in on the host', async () => {
    const { page, input } = await openComposer();
    await input.fill('needs auth');
    await input.press('Enter');
    await page.host(
      status({
        state: 'error',
        error: { kind: 'auth_required', message: 'Authentication required' },
        authMethods: [{ id: 'login', name: 'Browser login' }],
      }),
    );
    assert.equal(await input.inputValue(), '', 'not restored: the host sends it after sign-in');
    await input.fill('another');
    await input.press('Enter');
    assert.equal((await page.postedOf('send')).length, 2, 'not locked');
  });

  it('completes slash commands: filter, arrows, Enter/Tab, Escape', async () => {
    const page = await chat.openShowing(snapshot({ state: COMMANDS }));
    const input = page.page.locator('.composer-input');
    const menu = page.page.locator('.slash-menu');
    const items = page.page.locator('.slash-item');
    await input.click();
    await input.pressSequentially('/');
    assert.equal(await menu.isVisible(), true);
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await items.locator('.slash-name').allTextContents(), ['/explain', '/fix', '/test']);
    assert.equal(
      await items.first().locator('.slash-description').textContent(),
      'Explain the selected code',
    );
    assert.equal(await items.first().locator('.slash-hint').textContent(), 'what to explain');

    await input.pressSequentially('e');
    assert.deepEqual(
      await items.locator('.slash-name').allTextContents(),
      ['/explain', '/test'],
      'prefix first',
    );
    await input.press('ArrowDown');
    assert.equal(
      await page.page.locator('.slash-item[aria-selected="true"] .slash-name').textContent(),
      '/test',
    );
    const active = await input.getAttribute('aria-activedescendant');
    assert.equal(await page.page.locator(`#${active} .slash-name`).textContent(), '/test');
    await input.press('ArrowUp');
    await input.press('Enter');
    assert.equal(await input.inputValue(), '/explain ');
    assert.equal(await menu.isVisible(), false);
    assert.equal((await page.postedOf('send')).length, 0, 'picking does not send');
    assert.equal(await page.page.locator('.composer-hint').textContent(), 'what to explain');

    await input.pressSequentially('the parser');
    await input.press('Enter');
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: '/explain the parser' }]);

    await input.pressSequentially('/f');
    await input.press('Tab');
    assert.equal(await input.inputValue(), '/fix ');
    await input.fill('');
    await input.pressSequentially('/t');
    await input.press('Escape');
    assert.equal(await menu.isVisible(), false);
    assert.equal(await input.inputValue(), '/t');
  });

  it('recalls the previous prompt with ArrowUp in an empty box', async () => {
    const { page, input } = await openComposer();
    await input.fill('first prompt');
    await input.press('Enter');
    await page.host(events(started(turn('t1')), ended(turn('t1', { status: 'completed' }))));
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'first prompt');
    await input.press('ArrowDown');
    assert.equal(await input.inputValue(), '');
  });
});
