import assert from 'node:assert/strict';
import type { Elicitation, HostMessage, ThreadEntryMessage } from '../../src/protocol';
import { added, CHAT_ID, events, snapshot, toolCall, turn, updated } from './support/builders';
import type { ChatPage } from './support/chatPage';
import { useChatPages } from './support/suite';

/**
 * Where the keyboard is as the chat changes under it: what the agent asks takes focus once the message
 * went out, a control that goes away hands focus back to the message box (never to the page, where keys
 * reach nothing), and Esc answers a question.
 */

const FORM: Elicitation = {
  key: 'form-1',
  mode: 'form',
  title: 'Deployment',
  message: 'Where should I deploy?',
  fields: [{ name: 'project', label: 'Project', required: true, kind: 'text' }],
};
const PAGE: Elicitation = {
  key: 'url-1',
  mode: 'url',
  message: 'Sign in to the test service',
  url: 'https://login.example.com/oauth',
  host: 'login.example.com',
};

const asked = (item: Elicitation): HostMessage => ({ type: 'elicitation_added', chatId: CHAT_ID, item });
const settled = (item: Elicitation): HostMessage => ({
  type: 'elicitation_settled',
  chatId: CHAT_ID,
  key: item.key,
});

type ToolCall = Extract<ThreadEntryMessage, { kind: 'tool_call' }>;

function withPermission(status: 'pending' | 'selected', selectedOptionId?: string): ToolCall {
  return toolCall('e1', {
    title: 'Run tests',
    toolKind: 'execute',
    permission: {
      key: 'perm-1',
      status,
      options: [
        { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
      ...(selectedOptionId ? { selectedOptionId } : {}),
    },
  });
}

/** What has focus: the composer, the page, or the focused element's text. */
async function focused(page: ChatPage): Promise<string> {
  return page.page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) {
      return 'the page';
    }
    if (active.classList.contains('composer-input')) {
      return 'the composer';
    }
    return active.getAttribute('aria-label') ?? active.textContent?.trim() ?? active.tagName;
  });
}

/** The user went on outside the page (the editor, a picker): its iframe no longer has the focus. */
function leavePage(page: ChatPage): Promise<void> {
  return page.page.evaluate(() => {
    document.hasFocus = () => false;
  });
}

/** The user came back: the page has the focus again, and its window hears of it. */
function comeBack(page: ChatPage): Promise<void> {
  return page.page.evaluate(() => {
    document.hasFocus = () => true;
    window.dispatchEvent(new Event('focus'));
  });
}

/**
 * The view was focused but the page does not have the focus (yet, or no longer): its window hears a focus
 * event while nothing in the chat is focused and `document.hasFocus()` says false.
 */
function focusEventAheadOfThePage(page: ChatPage): Promise<void> {
  return page.page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    document.hasFocus = () => false;
    window.dispatchEvent(new Event('focus'));
  });
}

/** The host asks VS Code to focus the view for the user (Open Chat…), and `meanwhile` is what the page hears. */
async function openChatCommand(
  page: ChatPage,
  meanwhile: () => Promise<void> = async () => {},
): Promise<void> {
  await page.host({ type: 'focus_handoff', step: 'start' });
  await meanwhile();
  await page.host({ type: 'focus_handoff', step: 'end' });
}

/**
 * From now on every focus() in the page is counted in `window.focusCalls`. A string: a function made inside a
 * function given to evaluate() would carry the test build's naming helper.
 */
function countFocusCalls(page: ChatPage): Promise<void> {
  return page.page.evaluate(`(() => {
    window.focusCalls = 0;
    const real = HTMLElement.prototype.focus;
    HTMLElement.prototype.focus = function (...args) { window.focusCalls++; return real.apply(this, args); };
  })()`);
}

/** Nothing in the chat keeps the focus, the page may (a click on its empty part): no focus event is to come. */
function focusNothingInThePage(page: ChatPage): Promise<void> {
  return page.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Nothing in the chat is focused, and the page has no focus: the user is in the editor. */
async function inTheEditor(page: ChatPage): Promise<void> {
  await focusNothingInThePage(page);
  await leavePage(page);
}

/** Sends a message from the composer as a user does, and the host starts its turn. */
async function sendFromComposer(page: ChatPage): Promise<void> {
  await page.host(snapshot());
  const input = page.page.locator('.composer-input');
  await input.click();
  await input.fill('deploy it');
  await input.press('Enter');
  await page.host(snapshot({ turns: [turn('t1')] }));
  assert.equal(await focused(page), 'the composer');
}

describe('webview: focus follows what the agent asks', () => {
  const chat = useChatPages();

  /** A narrow chat page where the user sent a message from the composer and the agent then asked `question`. */
  async function askedAfterSending(question: Elicitation): Promise<ChatPage> {
    const page = await chat.open({ width: 300 });
    await sendFromComposer(page);
    await page.host(asked(question));
    return page;
  }

  it('a form takes focus from the message just sent: typing goes into its first field', async () => {
    const page = await askedAfterSending(FORM);
    await page.page.keyboard.type('web-app');
    assert.equal(await page.page.getByLabel('Project').inputValue(), 'web-app');
    assert.equal(await page.page.locator('.composer-input').inputValue(), '');
  });

  it('is announced to screen readers, also while the user types and keeps the focus', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }), { width: 300 });
    const input = page.page.locator('.composer-input');
    await input.click();
    await page.page.keyboard.type('a follow-up');
    await page.host(asked(FORM));
    assert.equal(await focused(page), 'the composer', 'text being typed keeps its focus');
    const live = page.page.locator('[role="status"][aria-live="polite"]', {
      hasText: 'The agent asks: Deployment. Where should I deploy?',
    });
    await live.waitFor({ state: 'attached' });
  });

  it('after Esc on a form, focus is back in the message box', async () => {
    const page = await askedAfterSending(FORM);
    await page.page.keyboard.press('Escape');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'answer_elicitation',
      key: 'form-1',
      answer: { action: 'cancel' },
    });
    await page.host(settled(FORM));
    assert.equal(await focused(page), 'the composer');
  });

  it('after Decline by keyboard, focus is back in the message box', async () => {
    const page = await askedAfterSending(FORM);
    await page.page.locator('.elicitation vscode-button', { hasText: 'Decline' }).focus();
    await page.page.keyboard.press('Enter');
    assert.deepEqual((await page.posted()).at(-1)?.type, 'answer_elicitation');
    await page.host(settled(FORM));
    assert.equal(await focused(page), 'the composer');
  });

  it('Esc on a page to open cancels it, as on a form', async () => {
    const page = await askedAfterSending(PAGE);
    assert.equal(await focused(page), 'Open login.example.com');
    await page.page.keyboard.press('Escape');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'answer_elicitation',
      key: 'url-1',
      answer: { action: 'cancel' },
    });
    await page.host(settled(PAGE));
    assert.equal(await focused(page), 'the composer');
  });

  it('a permission answered by keyboard hands focus to the message box', async () => {
    const page = await chat.open({ width: 300 });
    await sendFromComposer(page);
    await page.host(events(added(withPermission('pending'))));
    assert.equal(await focused(page), 'Allow once');
    await page.page.keyboard.press('Enter');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'answer_permission',
      key: 'perm-1',
      optionId: 'once',
    });
    await page.host(events(updated(withPermission('selected', 'once'))));
    assert.equal(await focused(page), 'the composer');
  });

  it('a control that goes away while the user is outside the page (a picker it opened) takes no focus back', async () => {
    const page = await chat.openShowing(snapshot({}, { selectedAgentId: 'demo', status: { state: 'idle' } }));
    await page.page.locator('.empty-add-agent').focus();
    // Add Agent… opened VS Code's picker: the page no longer has the focus (its iframe lost it).
    await leavePage(page);
    // The empty state is made again without that button (another agent chosen: Add another agent…).
    await page.host(snapshot({}, { selectedAgentId: 'copilot', status: { state: 'idle' } }));
    assert.match(await page.page.locator('.empty-add-agent').innerText(), /Add another agent/);
    assert.equal(
      await page.page.locator('.empty-add-agent').evaluate((button) => button === document.activeElement),
      false,
    );
    assert.notEqual(await focused(page), 'the composer', 'the picker would have closed');
    // The picker closed and the user is back in the chat: the message box has the focus.
    await comeBack(page);
    assert.equal(await focused(page), 'the composer');
  });

  it('what the agent asks while the user is outside the page (the editor) waits for them: their keys never answer it', async () => {
    const page = await chat.open({ width: 300 });
    await sendFromComposer(page);
    // The user went on to the editor: the page no longer has the focus (its iframe lost it).
    await leavePage(page);
    await page.host(events(added(withPermission('pending'))));
    assert.equal(await focused(page), 'the composer', 'Enter in the editor would have allowed it');
    // Back in the chat (the view focused): the question the agent asked meanwhile has the keyboard.
    await comeBack(page);
    assert.equal(await focused(page), 'Allow once');
  });

  it('the view focused after the user went on (a picker opened meanwhile) takes nothing', async () => {
    const page = await chat.open({ width: 300 });
    await page.host(snapshot());
    await focusEventAheadOfThePage(page);
    assert.equal(await focused(page), 'the page', 'the picker would have closed');
  });

  it('the view focused before the page says it has the focus (a frame of another process): the message box takes it once it does', async () => {
    const page = await chat.open({ width: 300 });
    await page.host(snapshot());
    await focusEventAheadOfThePage(page);
    assert.equal(await focused(page), 'the page');
    await page.page.evaluate(() => {
      document.hasFocus = () => true;
    });
    await page.page.waitForFunction(() => document.activeElement?.classList.contains('composer-input'));
  });

  it('the view focused, then left before the page said it had the focus: nothing takes it later', async () => {
    const page = await chat.open({ width: 300 });
    await page.host(snapshot());
    await page.page.evaluate(async () => {
      (document.activeElement as HTMLElement | null)?.blur();
      document.hasFocus = () => false;
      window.dispatchEvent(new Event('focus'));
      window.dispatchEvent(new Event('blur'));
      document.hasFocus = () => true;
      // Longer than the page is waited for after a focus event.
      for (let frame = 0; frame < 90; frame++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    });
    assert.equal(await focused(page), 'the page', 'a picker opened meanwhile would have closed');
  });

  it('Open Chat when VS Code drops the focus it hands on to the page: the message box takes it', async () => {
    const page = await chat.open({ width: 300 });
    await page.host(snapshot());
    await inTheEditor(page);
    // No focus event comes: VS Code focused the frame hosting the page and dropped the hand-on.
    await openChatCommand(page);
    assert.equal(await focused(page), 'the composer');
  });

  it('Open Chat when VS Code drops the focus, after the agent asked something meanwhile: its question takes it', async () => {
    const page = await chat.open({ width: 300 });
    await sendFromComposer(page);
    await leavePage(page);
    await page.host(events(added(withPermission('pending'))));
    assert.equal(await focused(page), 'the composer', 'asked while the user was outside the page');
    await openChatCommand(page);
    assert.equal(await focused(page), 'Allow once');
  });

  it('Open Chat, the page focused, then the user went on (a picker opened) before the host was done: nothing is taken', async () => {
    const page = await chat.open({ width: 300 });
    await page.host(snapshot());
    await inTheEditor(page);
    await openChatCommand(page, async () => {
      await comeBack(page);
      assert.equal(await focused(page), 'the composer');
      // A click on the page's empty part, then on to a picker.
      await inTheEditor(page);
      await countFocusCalls(page);
    });
    assert.equal(await page.page.evaluate('window.focusCalls'), 0, 'the picker would have closed');
  });

  it('Open Chat while the page has the focus, then the user went on (a picker opened) before the host was done: nothing is taken', async () => {
    const page = await chat.open({ width: 300 });
    await page.host(snapshot());
    await focusNothingInThePage(page);
    await openChatCommand(page, async () => {
      await leavePage(page);
      await countFocusCalls(page);
    });
    assert.equal(await page.page.evaluate('window.focusCalls'), 0, 'the picker would have closed');
  });

  it('Open Chat while the page has the focus and nothing in it: the message box takes it', async () => {
    const page = await chat.open({ width: 300 });
    await page.host(snapshot());
    await focusNothingInThePage(page);
    assert.equal(await focused(page), 'the page');
    await openChatCommand(page);
    assert.equal(await focused(page), 'the composer');
  });

  it('Open Chat while a control of the chat has the focus: it keeps it', async () => {
    const page = await chat.open({ width: 300 });
    await sendFromComposer(page);
    await page.host(events(added(withPermission('pending'))));
    assert.equal(await focused(page), 'Allow once');
    await page.page.keyboard.press('Tab');
    const chosen = await focused(page);
    assert.notEqual(chosen, 'Allow once');
    assert.notEqual(chosen, 'the page');
    await openChatCommand(page);
    assert.equal(await focused(page), chosen);
  });

  it('a click on the page itself leaves the focus where the user put it', async () => {
    const page = await chat.open({ width: 300 });
    await sendFromComposer(page);
    await page.page.mouse.click(150, 300);
    const chosen = await focused(page);
    assert.notEqual(chosen, 'the composer');
    await page.host(events(added(toolCall('e9', { title: 'Read file' }))));
    assert.equal(await focused(page), chosen);
  });
});
