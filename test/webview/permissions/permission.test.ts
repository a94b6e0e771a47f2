import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ThreadEntryMessage } from '../../../src/protocol';
import { added, events, snapshot, toolCall, turn, updated } from '../support/builders';
import { useChatPages } from '../support/suite';

type ToolCall = Extract<ThreadEntryMessage, { kind: 'tool_call' }>;

const OUT = resolve(__dirname, '../../../test-results');

const OPTIONS: NonNullable<ToolCall['permission']>['options'] = [
  { optionId: 'opt-once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'opt-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'opt-reject', name: 'Reject', kind: 'reject_once' },
  { optionId: 'opt-never', name: 'Never allow', kind: 'reject_always' },
];

function editWithPermission(
  status: 'pending' | 'selected' | 'cancelled',
  selectedOptionId?: string,
): ToolCall {
  return toolCall('e1', {
    title: 'Edit config.ts',
    toolKind: 'edit',
    status: 'pending',
    content: [{ type: 'diff', path: '/w/config.ts', oldText: 'a\n', newText: 'b\n' }],
    permission: {
      key: 'perm-7',
      status,
      options: OPTIONS,
      ...(selectedOptionId ? { selectedOptionId } : {}),
    },
  });
}

describe('webview: permission requests', () => {
  const chat = useChatPages();

  it('shows the agent options in order, with the diff, and answers with the chosen option', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.host(events(added(editWithPermission('pending'))));
    const card = page.page.locator('[data-entry-id="e1"]');
    const buttons = card.locator('.permission-buttons vscode-button');
    assert.deepEqual(await buttons.allTextContents(), [
      'Allow once',
      'Always allow',
      'Reject',
      'Never allow',
    ]);
    assert.deepEqual(
      await buttons.evaluateAll((els) => els.map((e) => e.hasAttribute('secondary'))),
      [false, true, true, true],
      'allow once is the primary button',
    );
    assert.equal(await card.locator('.diff-add').count(), 1, 'the diff is visible with the request');
    assert.equal(await card.locator('.disclosure-header').getAttribute('aria-expanded'), 'true');

    await buttons.nth(1).click();
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'answer_permission',
      key: 'perm-7',
      optionId: 'opt-always',
    });
    await buttons.nth(1).click({ force: true });
    assert.equal(
      (await page.postedOf('answer_permission')).length,
      1,
      'a second click does not answer again',
    );

    await page.host(events(updated(editWithPermission('selected', 'opt-always'))));
    assert.equal(await card.locator('.permission-buttons').count(), 0);
    assert.equal(await card.locator('.permission-result').innerText(), 'Always allow');
  });

  it('moves focus to the first option when a request appears', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.host(events(added(editWithPermission('pending'))));
    const focused = await page.page.evaluate(() => document.activeElement?.textContent);
    assert.equal(focused, 'Allow once');
    await page.page.keyboard.press('Tab');
    assert.equal(await page.page.evaluate(() => document.activeElement?.textContent), 'Always allow');
    await page.page.keyboard.press('Enter');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'answer_permission',
      key: 'perm-7',
      optionId: 'opt-always',
    });
  });

  it('does not steal focus from the composer', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.page.locator('.composer-input').click();
    await page.page.keyboard.type('typing a follow-up');
    await page.host(events(added(editWithPermission('pending'))));
    assert.equal(await page.page.evaluate(() => document.activeElement?.className), 'composer-input');
    await page.page.keyboard.type('!');
    assert.equal(await page.page.locator('.composer-input').inputValue(), 'typing a follow-up!');
  });

  it('reopens a card the user closed when a permission request arrives', async () => {
    const page = await chat.open();
    const call = toolCall('e1', { status: 'in_progress' });
    await page.host(snapshot({ entries: [call], turns: [turn('t1')] }));
    const header = page.page.locator('[data-entry-id="e1"] .disclosure-header');
    await header.click();
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    await page.host(events(updated(editWithPermission('pending'))));
    assert.equal(await header.getAttribute('aria-expanded'), 'true');
  });

  it('shows "Cancelled" when the request was cancelled', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [editWithPermission('pending')], turns: [turn('t1')] }),
    );
    await page.host(events(updated(editWithPermission('cancelled'))));
    assert.equal(await page.page.locator('[data-entry-id="e1"] .permission-buttons').count(), 0);
    assert.equal(await page.page.locator('[data-entry-id="e1"] .permission-result').innerText(), 'Cancelled');
  });

  it('lets the user answer again when the host reports an error', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [editWithPermission('pending')], turns: [turn('t1')] }),
    );
    const reject = page.page.locator('[data-entry-id="e1"] vscode-button', { hasText: 'Reject' });
    await reject.click();
    assert.equal(await reject.getAttribute('disabled'), '');
    await page.host({ type: 'error', message: 'The permission request is gone.' });
    assert.equal(await reject.getAttribute('disabled'), null);
    assert.match(await page.page.locator('.alert').innerText(), /permission request is gone/);
  });

  it('shows how many more requests wait behind the one asked, and the count goes as they are answered (screenshot)', async () => {
    const page = await chat.open();
    const queued = (waiting: number | undefined): ToolCall => {
      const call = editWithPermission('pending');
      return { ...call, permission: { ...call.permission!, ...(waiting ? { waiting } : {}) } };
    };
    await page.host(snapshot({ entries: [queued(3)], turns: [turn('t1')] }));
    const count = page.page.locator('[data-entry-id="e1"] .permission-waiting');
    assert.equal(await count.innerText(), '3 more requests');
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/permission-queue.png` });
    await page.host(events(updated(queued(1))));
    assert.equal(await count.innerText(), '1 more request');
    await page.host(events(updated(queued(undefined))));
    assert.equal(await count.count(), 0);
  });
});
