import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Elicitation, HostMessage } from '../../../src/protocol';
import { CHAT_ID, snapshot } from '../support/builders';
import { saveForDocs } from '../support/docs';
import type { ChatPage } from '../support/chatPage';
import { useChatPages } from '../support/suite';

const OUT = resolve(__dirname, '../../../test-results');

const FORM: Elicitation = {
  key: 'elicit-1',
  mode: 'form',
  message: 'Where should I deploy?',
  title: 'Deployment settings',
  fields: [
    {
      name: 'name',
      label: 'Project name',
      description: 'Lower case, no spaces',
      required: true,
      kind: 'text',
      minLength: 2,
      pattern: '^[a-z0-9-]+$',
    },
    { name: 'email', label: 'Contact email', required: true, kind: 'text', format: 'email' },
    {
      name: 'replicas',
      label: 'Replicas',
      required: false,
      kind: 'number',
      integer: true,
      minimum: 1,
      maximum: 10,
      default: 2,
    },
    {
      name: 'region',
      label: 'Region',
      required: true,
      kind: 'choice',
      choices: [
        { value: 'eu', label: 'Europe' },
        { value: 'us', label: 'United States' },
      ],
    },
    { name: 'notify', label: 'Notify me when done', required: false, kind: 'boolean', default: true },
    {
      name: 'checks',
      label: 'Checks',
      required: false,
      kind: 'multi',
      choices: [
        { value: 'lint', label: 'Lint' },
        { value: 'test', label: 'Test' },
      ],
      default: ['test'],
    },
  ],
};

const URL_QUESTION: Elicitation = {
  key: 'elicit-2',
  mode: 'url',
  message: 'Sign in to the test service',
  url: 'https://login.example.com/oauth?state=1',
  host: 'login.example.com',
};

/** The host's message: the agent asks `item` in the shown chat. */
function added(item: Elicitation): HostMessage {
  return { type: 'elicitation_added', chatId: CHAT_ID, item };
}

/** The host's message: question `key` was answered, cancelled or withdrawn. */
function settled(key: string): HostMessage {
  return { type: 'elicitation_settled', chatId: CHAT_ID, key };
}

/** Resolves with `work`, or rejects after `ms`: the page's thread may be blocked for ever. */
function guarded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (the page is blocked)`)), ms),
    ),
  ]);
}

describe('webview: the agent asks (elicitation)', () => {
  const chat = useChatPages();

  /** A fresh chat page on which the agent asked `question`. */
  async function openAsked(question: Elicitation): Promise<ChatPage> {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(added(question));
    return page;
  }

  it('renders an accessible form and focuses its first field', async () => {
    const page = await openAsked(FORM);
    const form = page.page.locator('form.elicitation-form');
    assert.equal(
      await form.locator('fieldset.elicitation-fields > legend').innerText(),
      'Deployment settings',
    );
    assert.equal(
      await page.page.evaluate(
        () => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent,
      ),
      'Project name *',
    );
    // Labels name every control; the description is linked to its field.
    assert.equal(await page.page.getByLabel('Contact email').getAttribute('type'), 'email');
    assert.equal(await page.page.getByLabel('Replicas').inputValue(), '2');
    assert.equal(await page.page.getByLabel('Notify me when done').isChecked(), true);
    const described = await page.page.getByLabel('Project name').getAttribute('aria-describedby');
    assert.match(
      await page.page.evaluate(
        (ids) =>
          ids
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent)
            .join('|'),
        described ?? '',
      ),
      /^Lower case, no spaces\|/,
    );
    assert.equal(await page.page.getByLabel('Region').getAttribute('aria-required'), 'true');
    // Every control has a label; the multiple choice is a group named by its legend.
    const unlabelled = await form.evaluate((element) =>
      Array.from(element.querySelectorAll('input, select'))
        .filter((control) => (control as HTMLInputElement).labels?.length === 0)
        .map((control) => control.outerHTML),
    );
    assert.deepEqual(unlabelled, []);
    assert.equal(await page.page.getByRole('group', { name: 'Checks (optional)' }).count(), 1);
    assert.equal(await page.page.getByLabel('Test').isChecked(), true);
    page.assertClean();
  });

  it('shows what is wrong, marks the fields invalid and focuses the first, before anything is sent', async () => {
    const page = await openAsked(FORM);
    await page.page.keyboard.type('Bad Name');
    await page.page.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await page.postedOf('answer_elicitation'), []);
    const email = page.page.getByLabel('Contact email');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    // The agent's pattern is the host's to run: the page does not judge it.
    assert.equal(await page.page.getByLabel('Project name').getAttribute('aria-invalid'), null);
    assert.deepEqual(await page.page.locator('.elicitation-error:not([hidden])').allInnerTexts(), [
      'Contact email is required.',
      'Region is required.',
    ]);
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), await email.getAttribute('id'));
    page.assertClean();
  });

  it("shows the host's verdict on the agent's pattern under its field, and focuses it", async () => {
    const page = await openAsked(FORM);
    await page.host({
      type: 'elicitation_problems',
      chatId: CHAT_ID,
      key: FORM.key,
      problems: { name: 'Project name does not have the expected form.' },
    });
    const name = page.page.getByLabel('Project name');
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await page.page.locator('.elicitation-error:not([hidden])').allInnerTexts(), [
      'Project name does not have the expected form.',
    ]);
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), await name.getAttribute('id'));
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/elicitation-verdict.png` });
    // A verdict on another question (settled meanwhile) changes nothing.
    await page.host({
      type: 'elicitation_problems',
      chatId: CHAT_ID,
      key: 'elicit-9',
      problems: { name: 'x' },
    });
    assert.equal(await page.page.locator('.elicitation-error:not([hidden])').count(), 1);
    page.assertClean();
  });

  it("never runs an agent's pattern: a backtracking one with its default is sent at once", async () => {
    const page = await chat.open();
    await page.host(snapshot());
    const hostile: Elicitation = {
      key: 'elicit-3',
      mode: 'form',
      message: 'Hostile form',
      fields: [
        {
          name: 'a',
          label: 'A',
          required: true,
          kind: 'text',
          pattern: '^((a)+)+$',
          default: `${'a'.repeat(40)}!`,
        },
      ],
    };
    await page.host(added(hostile));
    const sent = guarded(
      (async () => {
        await page.page.getByRole('button', { name: 'Submit' }).click({ timeout: 10_000 });
        return page.postedOf('answer_elicitation');
      })(),
      15_000,
      'Submit',
    );
    assert.deepEqual(await sent, [
      {
        type: 'answer_elicitation',
        key: 'elicit-3',
        answer: { action: 'accept', values: { a: `${'a'.repeat(40)}!` } },
      },
    ]);
    page.assertClean();
  });

  it('adds and settles questions one by one, the oldest shown first', async () => {
    const page = await openAsked(FORM);
    await page.host(added(URL_QUESTION));
    await page.host(added(FORM)); // a repeated message adds nothing
    assert.equal(await page.page.locator('.elicitation-form').count(), 1);
    await page.host(settled(FORM.key));
    assert.equal(await page.page.locator('.elicitation-url-card').count(), 1);
    await page.host(settled(URL_QUESTION.key));
    assert.equal(await page.page.locator('.elicitations').isVisible(), false);
    page.assertClean();
  });

  it('is filled and sent with the keyboard alone', async () => {
    const page = await openAsked(FORM);
    const keys = page.page.keyboard;
    await keys.type('web-app');
    await keys.press('Tab');
    await keys.type('a@b.io');
    await keys.press('Tab');
    await keys.press('Control+A');
    await keys.type('3');
    await keys.press('Tab');
    await page.page.getByLabel('Region').selectOption('eu'); // a native select: arrows work as in VS Code
    await page.page.getByLabel('Region').focus();
    await keys.press('Tab');
    await keys.press('Space'); // unticks "Notify me"
    await keys.press('Tab');
    await keys.press('Space'); // ticks "Lint"
    await keys.press('Enter'); // submits the form
    assert.deepEqual(await page.postedOf('answer_elicitation'), [
      {
        type: 'answer_elicitation',
        key: 'elicit-1',
        answer: {
          action: 'accept',
          values: {
            name: 'web-app',
            email: 'a@b.io',
            replicas: 3,
            region: 'eu',
            notify: false,
            checks: ['lint', 'test'],
          },
        },
      },
    ]);
    page.assertClean();
  });

  it('declines, and cancels with Escape', async () => {
    const page = await openAsked(FORM);
    await page.page.getByRole('button', { name: 'Decline' }).click();
    await page.page.getByLabel('Project name').focus();
    await page.page.keyboard.press('Escape');
    assert.deepEqual(
      (await page.postedOf('answer_elicitation')).map((m) => (m as { answer: unknown }).answer),
      [{ action: 'decline' }, { action: 'cancel' }],
    );
    await page.host(settled(FORM.key));
    assert.equal(await page.page.locator('.elicitations').isVisible(), false);
    page.assertClean();
  });

  it('shows a URL with its host and opens it only on "Open"', async () => {
    const page = await openAsked(URL_QUESTION);
    const card = page.page.locator('.elicitation-url-card');
    assert.match(await card.innerText(), /open a page on login\.example\.com/);
    assert.equal(
      await card.locator('.elicitation-url').innerText(),
      'https://login.example.com/oauth?state=1',
    );
    assert.deepEqual(
      await page.postedOf('answer_elicitation'),
      [],
      'nothing is opened before the user agrees',
    );
    await page.page.getByRole('button', { name: 'Open login.example.com' }).click();
    assert.deepEqual(await page.postedOf('answer_elicitation'), [
      { type: 'answer_elicitation', key: 'elicit-2', answer: { action: 'accept' } },
    ]);
    page.assertClean();
  });

  it("ignores another chat's questions", async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host({ type: 'elicitation_added', chatId: 'another-chat', item: FORM });
    assert.equal(await page.page.locator('.elicitations').isVisible(), false);
    page.assertClean();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`looks right (${theme} screenshot)`, async () => {
      const page = await chat.open({ width: 420, height: 700, theme });
      await page.host(snapshot());
      await page.host(added(FORM));
      await page.page.getByRole('button', { name: 'Submit' }).click();
      await page.page.evaluate(() => document.fonts.ready);
      await mkdir(OUT, { recursive: true });
      const form = `${OUT}/elicitation-form-${theme}.png`;
      await page.page.screenshot({ path: form });
      if (theme === 'dark') {
        await saveForDocs(form, 'elicitation-form.png');
      }
      await page.host(settled(FORM.key));
      await page.host(added(URL_QUESTION));
      await page.page.screenshot({ path: `${OUT}/elicitation-url-${theme}.png` });
      page.assertClean();
    });
  }
});
