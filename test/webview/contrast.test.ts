import assert from 'node:assert/strict';
import type { ChatSummary, Elicitation } from '../../src/protocol';
import { CHAT_ID, chatSummary, message, snapshot } from './support/builders';
import { finishedTurn } from './support/changeCard';
import type { ChatPage } from './support/chatPage';
import { openChatList } from './support/chatList';
import { lowestContrast, painted, type Part } from './support/contrast';
import { useChatPages } from './support/suite';

/** WCAG 2.1 AA: 4.5:1 for text (all of the chat's text is under 18 pt), 3:1 for a control's boundary. */
const TEXT = 4.5;
const BOUNDARY = 3;

const NOW = Date.now();
const CHATS: ChatSummary[] = [
  chatSummary({ agentId: 'a', agentLabel: 'Copilot CLI', updatedAt: NOW }),
  chatSummary({ chatId: 'c2', title: 'Write docs', agentId: 'a', agentLabel: 'Copilot CLI', updatedAt: NOW }),
];
const FORM: Elicitation = {
  key: 'k1',
  mode: 'form',
  title: 'Deployment',
  message: 'Where should I deploy?',
  fields: [
    { name: 'email', label: 'Contact email', required: true, kind: 'text', format: 'email' },
    { name: 'project', label: 'Project', required: false, kind: 'text' },
  ],
};

/** The surfaces the checks look at: a change card, the chat list open, a form whose Submit found a problem. */
async function surfaces(page: ChatPage): Promise<void> {
  await page.host(
    snapshot({ entries: [message('user', 'u1', 'Refactor')], turns: [finishedTurn()] }, { chats: CHATS }),
  );
  await page.host({ type: 'elicitation_added', chatId: CHAT_ID, item: FORM });
  await page.page.getByRole('button', { name: 'Submit' }).click();
  await openChatList(page);
}

const CHECKS: readonly { what: string; selector: string; part: Part; least: number }[] = [
  {
    what: 'a form field’s error text',
    selector: '.elicitation-error:not([hidden])',
    part: 'text',
    least: TEXT,
  },
  {
    what: 'an invalid field’s border',
    selector: '.elicitation-input[aria-invalid="true"]',
    part: 'border',
    least: BOUNDARY,
  },
  {
    what: 'a form field’s placeholder',
    selector: 'input.elicitation-input[placeholder]:not([placeholder=""])',
    part: 'placeholder',
    least: TEXT,
  },
  { what: 'the composer’s placeholder', selector: '.composer-input', part: 'placeholder', least: TEXT },
  {
    what: 'the selected chat’s meta text',
    selector: '.chat-row[aria-current="true"] .chat-meta',
    part: 'text',
    least: TEXT,
  },
  {
    what: 'another chat’s meta text',
    selector: '.chat-row:not([aria-current]) .chat-meta',
    part: 'text',
    least: TEXT,
  },
  { what: 'the chat list’s title', selector: '.chat-list-title', part: 'text', least: TEXT },
  { what: 'the chat list’s border', selector: '.chat-list', part: 'border', least: BOUNDARY },
  { what: 'the change card’s border', selector: '.change-card', part: 'border', least: BOUNDARY },
  { what: 'a changed file’s folder', selector: '.change-folder', part: 'text', least: TEXT },
];

describe('webview: contrast against WCAG AA, from the theme’s colours', () => {
  const chat = useChatPages();

  for (const theme of ['light', 'dark'] as const) {
    it(`every checked surface reaches AA in the ${theme} theme`, async () => {
      const page = await chat.open({ theme, width: 300, height: 900 });
      await surfaces(page);
      const failures: string[] = [];
      for (const check of CHECKS) {
        const target = page.page.locator(check.selector);
        assert.ok((await target.count()) > 0, `${check.what} is on the page (${check.selector})`);
        const ratio = lowestContrast(await painted(target, check.part));
        if (ratio < check.least) {
          failures.push(`${check.what}: ${ratio.toFixed(2)}:1 (needs ${check.least}:1)`);
        }
      }
      assert.deepEqual(failures, []);
    });
  }
});
