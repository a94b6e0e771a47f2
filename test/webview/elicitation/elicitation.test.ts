import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Elicitation, HostMessage } from '../../../src/protocol';
import { CHAT_ID, snapshot } from '../support/builders';
import { saveForDocs } from '../support/docs';
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

function questions(...items: Elicitation[]): HostMessage {
  return { type: 'elicitations', chatId: CHAT_ID, items };
}

describe('webview: the agent asks (elicitation)', () => {
  const chat = useChatPages();

  it('renders an accessible form and focuses its first field', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(questions(FORM));
    const form = page.page.locator('form.elicitation-form');
    assert.equal(await form.locator('fieldset.elicitation-fields > legend').innerText(), 'Deployment settings');
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
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(questions(FORM));
    await page.page.keyboard.type('Bad Name');
    await page.page.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(await page.postedOf('answer_elicitation'), []);
    const name = page.page.getByLabel('Project name');
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.page.getByLabel('Contact email').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await page.page.locator('.elicitation-error:not([hidden])').allInnerTexts(), [
      'Project name does not have the expected form.',
      'Contact email is required.',
      'Region is required.',
    ]);
    assert.equal(await page.page.evaluate(() => document.activeElement?.id), await name.getAttribute('id'));
    page.assertClean();
  });

  it('is filled and sent with the keyboard alone', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(questions(FORM));
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
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(questions(FORM));
    await page.page.getByRole('button', { name: 'Decline' }).click();
    await page.page.getByLabel('Project name').focus();
    await page.page.keyboard.press('Escape');
    assert.deepEqual(
      (await page.postedOf('answer_elicitation')).map((m) => (m as { answer: unknown }).answer),
      [{ action: 'decline' }, { action: 'cancel' }],
    );
    await page.host(questions());
    assert.equal(await page.page.locator('.elicitations').isVisible(), false);
    page.assertClean();
  });

  it('shows a URL with its host and opens it only on "Open"', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(questions(URL_QUESTION));
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
    await page.host({ type: 'elicitations', chatId: 'another-chat', items: [FORM] });
    assert.equal(await page.page.locator('.elicitations').isVisible(), false);
    page.assertClean();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`looks right (${theme} screenshot)`, async () => {
      const page = await chat.open({ width: 420, height: 700, theme });
      await page.host(snapshot());
      await page.host(questions(FORM));
      await page.page.getByRole('button', { name: 'Submit' }).click();
      await page.page.evaluate(() => document.fonts.ready);
      await mkdir(OUT, { recursive: true });
      const form = `${OUT}/elicitation-form-${theme}.png`;
      await page.page.screenshot({ path: form });
      if (theme === 'dark') {
        await saveForDocs(form, 'elicitation-form.png');
      }
      await page.host(questions(URL_QUESTION));
      await page.page.screenshot({ path: `${OUT}/elicitation-url-${theme}.png` });
      page.assertClean();
    });
  }
});
