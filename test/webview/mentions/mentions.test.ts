import assert from 'node:assert/strict';
import type { Mention } from '../../../src/protocol';
import { message, snapshot, turn } from '../support/builders';
import type { Locator } from 'playwright-core';
import type { ChatPage } from '../support/chatPage';
import { useChatPages } from '../support/suite';

const HELLO: Mention = {
  kind: 'file',
  uri: 'file:///ws/src/hello.ts',
  name: 'hello.ts',
  detail: 'src/hello.ts',
};
const HELP: Mention = { kind: 'folder', uri: 'file:///ws/help', name: 'help/', detail: 'help' };
const SELECTION: Mention = {
  kind: 'selection',
  uri: 'file:///ws/src/hello.ts',
  name: 'Selection (hello.ts:2-3)',
  detail: 'src/hello.ts',
  range: { startLine: 2, endLine: 3 },
};

describe('webview: @-mentions', () => {
  const chat = useChatPages();

  /** A fresh chat page whose composer the user clicked and typed `text` in, key by key. */
  async function typeInComposer(text: string): Promise<{ page: ChatPage; input: Locator }> {
    const page = await chat.open();
    await page.host(snapshot());
    const input = page.page.locator('.composer-input');
    await input.click();
    await input.pressSequentially(text);
    return { page, input };
  }

  /** The host answers the picker's latest query with `items`. */
  async function answerLatestQuery(page: ChatPage, items: Mention[]): Promise<void> {
    const last = (await page.postedOf('mention_query')).at(-1);
    assert.ok(last, 'the picker asked');
    await page.host({ type: 'mention_results', requestId: last.requestId, items });
  }

  it('asks the host as "@hel" is typed, picks with the keyboard, shows a chip and sends the mention', async () => {
    const { page, input } = await typeInComposer('Explain @hel');
    const queries = await page.postedOf('mention_query');
    assert.deepEqual(
      queries.map((query) => query.query),
      ['', 'h', 'he', 'hel'],
      'one query per keystroke after "@"',
    );
    const last = queries.at(-1);
    assert.ok(last);
    await page.host({ type: 'mention_results', requestId: last.requestId, items: [HELP, HELLO] });
    const items = page.page.locator('.mention-item');
    assert.deepEqual(await items.locator('.mention-label').allTextContents(), ['help/', 'hello.ts']);
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    await input.press('ArrowDown');
    assert.equal(await items.nth(1).getAttribute('aria-selected'), 'true');
    assert.equal(
      await input.getAttribute('aria-activedescendant'),
      await items.nth(1).getAttribute('id'),
      'the active option is announced',
    );
    await input.press('Enter');
    assert.equal(await page.page.locator('.mention-menu').isVisible(), false);
    assert.equal(await input.inputValue(), 'Explain @hello.ts ');
    const chip = page.page.locator('.composer-chip');
    assert.equal(await chip.locator('.chip-label').textContent(), 'hello.ts');
    assert.equal(await chip.getAttribute('data-kind'), 'file');
    await page.page.locator('.composer-mirror .mention-highlight').first().waitFor();
    assert.deepEqual(
      await page.page.locator('.composer-mirror .mention-highlight').allTextContents(),
      ['@hello.ts'],
      'the mention shows as a chip inside the text',
    );
    assert.equal((await page.postedOf('send')).length, 0, 'Enter picked, it did not send');
    await input.pressSequentially('please');
    await input.press('Enter');
    assert.deepEqual(await page.postedOf('send'), [
      {
        type: 'send',
        text: 'Explain @hello.ts please',
        attachments: [{ kind: 'file', uri: 'file:///ws/src/hello.ts', name: 'hello.ts' }],
      },
    ]);
    await chip.waitFor({ state: 'detached' }); // the chips went with the message
  });

  it('shows only the answer to the latest query', async () => {
    const { page } = await typeInComposer('@he');
    const [, first, second] = await page.postedOf('mention_query');
    assert.ok(first && second);
    await page.host({ type: 'mention_results', requestId: second.requestId, items: [HELLO] });
    await page.host({ type: 'mention_results', requestId: first.requestId, items: [HELP] });
    assert.deepEqual(await page.page.locator('.mention-label').allTextContents(), ['hello.ts']);
    await page.host({ type: 'mention_results', requestId: second.requestId, items: [] });
    assert.match(await page.page.locator('.mention-empty').innerText(), /Nothing matches "he"/);
  });

  it('Escape closes the picker and Enter then sends the text as typed', async () => {
    const { page, input } = await typeInComposer('mail me @home');
    await answerLatestQuery(page, [HELLO]);
    await input.press('Escape');
    assert.equal(await page.page.locator('.mention-menu').isVisible(), false);
    await input.press('Enter');
    assert.deepEqual(await page.postedOf('send'), [{ type: 'send', text: 'mail me @home' }]);
  });

  it('keeps a selection and its file apart, and removing a chip removes its @name from the text', async () => {
    const { page, input } = await typeInComposer('');
    for (const item of [SELECTION, HELLO]) {
      await input.pressSequentially(' @');
      await answerLatestQuery(page, [item]);
      await input.press('Tab');
    }
    assert.equal(await input.inputValue(), ' @Selection (hello.ts:2-3)  @hello.ts ');
    const chips = page.page.locator('.composer-chip');
    await chips.nth(1).waitFor();
    assert.deepEqual(await chips.locator('.chip-label').allTextContents(), [
      'Selection (hello.ts:2-3)',
      'hello.ts',
    ]);
    await page.page.getByRole('button', { name: 'Remove Selection (hello.ts:2-3)' }).click();
    await chips.nth(1).waitFor({ state: 'detached' }); // re-rendered on the next animation frame
    assert.deepEqual(await chips.locator('.chip-label').allTextContents(), ['hello.ts']);
    assert.equal(await input.inputValue(), ' @hello.ts ');
    assert.deepEqual(await page.page.locator('.mention-highlight').allTextContents(), ['@hello.ts']);
    assert.deepEqual((await page.postedOf('remove_attachment')).length, 1);
  });

  it('does not open for an "@" inside a word (an e-mail address)', async () => {
    const { page } = await typeInComposer('me@example.com');
    assert.equal((await page.postedOf('mention_query')).length, 0);
    assert.equal(await page.page.locator('.mention-menu').isVisible(), false);
  });

  it('renders the mentions of a sent message as links that open the file', async () => {
    const page = await chat.open();
    const uri = 'file:///ws/src/hello.ts';
    await page.host(
      snapshot({
        entries: [
          message('user', 'u1', 'Why does @hello.ts fail? Not @nobody, and not `@hello.ts` in code.', {
            attachments: [{ type: 'resource', uri, chars: 120 }],
          }),
        ],
        turns: [turn('t1', { status: 'completed', stopReason: 'end_turn' })],
      }),
    );
    const links = page.page.locator('.entry-user .mention-link');
    assert.deepEqual(await links.allTextContents(), ['@hello.ts']);
    assert.equal(
      await page.page.locator('.entry-user .markdown').innerText(),
      'Why does @hello.ts fail? Not @nobody, and not @hello.ts in code.',
    );
    await links.click();
    assert.deepEqual(await page.postedOf('open_file'), [{ type: 'open_file', path: '/ws/src/hello.ts' }]);
  });
});
