import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import type { Locator } from 'playwright-core';
import { CHAT_ID, events, modelOption, selectOption, sessionState, snapshot } from './support/builders';
import { useChatPages } from './support/suite';

const STATE = sessionState({
  title: 'Refactor parser',
  usage: { used: 1234, size: 200_000, cost: { amount: 0.01, currency: 'USD' } },
  modes: {
    currentModeId: 'ask',
    available: [
      { id: 'ask', name: 'Ask', description: 'Answers only' },
      { id: 'code', name: 'Code' },
    ],
  },
  configOptions: [modelOption(), { type: 'boolean', id: 'web', name: 'Web search', currentValue: false }],
});

const OUT = resolve(__dirname, '../../test-results');
const MODES_ONLY = { ...STATE, configOptions: [] };

/** Picks an option the way a user does: focus the select and choose the option by its label. */
async function pick(select: Locator, label: string): Promise<void> {
  await select.focus();
  await select.selectOption({ label });
}

describe('webview: header', () => {
  const chat = useChatPages();

  it('shows the title, usage and cost, and updates them from state events', async () => {
    const page = await chat.open();
    await page.host(snapshot({ state: STATE }));
    assert.equal(await page.page.locator('.session-title').textContent(), 'Refactor parser');
    assert.equal(await page.page.locator('.usage-text').textContent(), '1.2k / 200k tokens · $0.01');
    const meter = page.page.locator('.usage');
    assert.equal(await meter.getAttribute('role'), 'meter');
    assert.equal(await meter.getAttribute('aria-valuenow'), '1234');
    const width = await page.page.locator('.usage-fill').evaluate((fill) => fill.style.width);
    assert.equal(width, '0.6%');
    await page.host(
      events({
        type: 'state_updated',
        changed: 'usage',
        state: { ...STATE, title: 'Renamed', usage: { used: 170_000, size: 200_000 } },
      }),
    );
    assert.equal(await page.page.locator('.session-title').textContent(), 'Renamed');
    assert.equal(await page.page.locator('.usage-text').textContent(), '170k / 200k tokens');
    assert.equal(await meter.getAttribute('data-level'), 'high');
  });

  it('posts select_agent, set_mode and set_config_option from the pickers', async () => {
    const page = await chat.open();
    // An agent with modes only gets a Mode picker; one with config options gets their pickers.
    await page.host(snapshot({ state: MODES_ONLY }));
    await pick(page.page.locator('select[aria-label="Agent"]'), 'Demo agent (offline)');
    await pick(page.page.locator('select[aria-label="Mode"]'), 'Code');
    await page.host(snapshot({ state: STATE }));
    await pick(page.page.locator('select[aria-label="Model"]'), 'Smart');
    // The checkbox is a native one drawn like VS Code's: its label is what the user clicks.
    await page.page.getByText('Web search').click();
    assert.equal(await page.page.getByRole('checkbox', { name: 'Web search' }).isChecked(), true);
    assert.deepEqual((await page.posted()).slice(1), [
      { type: 'select_agent', agentId: 'demo' },
      { type: 'set_mode', modeId: 'code' },
      { type: 'set_config_option', configId: 'model', value: 'smart' },
      { type: 'set_config_option', configId: 'web', value: true },
    ]);
  });

  it('shows no Mode picker beside config options, whatever their category (one picker per choice)', async () => {
    const page = await chat.open();
    const thoughtLevel = selectOption('thought_level', 'Thinking', { ask: 'Ask', code: 'Code' }, 'ask', {
      category: 'thought_level',
    });
    await page.host(snapshot({ state: { ...MODES_ONLY, configOptions: [thoughtLevel] } }));
    assert.equal(await page.page.locator('select[aria-label="Mode"]').count(), 0);
    assert.equal(await page.page.locator('select[aria-label="Thinking"]').count(), 1);
    await page.page.screenshot({ path: `${OUT}/header-one-picker.png` });
  });

  it('shows the values the host reports, without posting them back', async () => {
    const page = await chat.open();
    await page.host(snapshot({ state: MODES_ONLY }));
    await page.host(
      events({
        type: 'state_updated',
        changed: 'modes',
        state: { ...MODES_ONLY, modes: { ...STATE.modes!, currentModeId: 'code' } },
      }),
    );
    await page.frame();
    assert.equal(
      await page.page.locator('select[aria-label="Mode"]').evaluate((s) => (s as HTMLSelectElement).value),
      'code',
    );
    assert.deepEqual(await page.posted(), [{ type: 'ready' }]);
  });

  it('shows one Mode picker when the agent sends both modes and a mode config option, and no setting twice', async () => {
    const modeOption = selectOption('mode', 'Mode', { ask: 'Ask', code: 'Code' }, 'code', {
      category: 'mode',
    });
    const thinking = { type: 'boolean' as const, id: 'thinking', name: 'Thinking', currentValue: false };
    const page = await chat.open();
    await page.host(
      snapshot({
        state: {
          ...STATE,
          configOptions: [
            modeOption,
            thinking,
            { ...thinking, id: 'thinking-2', name: 'thinking ' },
            thinking,
          ],
        },
      }),
    );
    const modePickers = page.page.locator('select[aria-label="Mode"]');
    assert.equal(await modePickers.count(), 1);
    assert.equal(await page.page.getByRole('checkbox', { name: 'Thinking' }).count(), 1);
    assert.equal(await page.page.getByRole('checkbox').count(), 1);
    // The one Mode picker is the config option: choosing sets the option, not the legacy mode.
    await pick(modePickers, 'Ask');
    assert.deepEqual((await page.posted()).at(-1), {
      type: 'set_config_option',
      configId: 'mode',
      value: 'ask',
    });
  });

  it('hides mode and config pickers when the agent offers none', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    assert.equal(await page.page.locator('select[aria-label="Mode"]').count(), 0);
    assert.equal(await page.page.locator('.picker').count(), 1, 'only the agent picker');
    assert.equal(await page.page.locator('.usage').isVisible(), false);
    assert.equal(await page.page.locator('.session-title').textContent(), 'New chat');
  });

  // One header: the chat's actions are in VS Code's view title (and a chat tab's), not a second row here.
  it('has no title row of its own: the chat is named for screen readers, its actions are the title’s', async () => {
    const page = await chat.open({ width: 300 });
    const chats = [
      { chatId: CHAT_ID, title: '', agentId: 'demo', agentLabel: 'Demo', updatedAt: 0, running: false },
    ];
    await page.host(snapshot({}, { selectedAgentId: 'demo', chats }));
    const title = page.page.locator('h1.session-title');
    assert.equal(await title.textContent(), 'New chat');
    assert.deepEqual(await title.boundingBox().then((box) => [box?.width, box?.height]), [1, 1]);
    assert.equal(
      await page.page.locator('.chat-header button:not(#chat-list *)').count(),
      0,
      'no New chat or history button',
    );
    const header = await page.page.locator('.chat-header').boundingBox();
    const picker = await page.page.locator('select[aria-label="Agent"]').boundingBox();
    assert.ok(
      header && picker && picker.y - header.y < 12,
      'the agent picker is the first thing under the title',
    );
    // Show Chats from the title opens the list with focus on the current chat, and closes it again.
    await page.host({ type: 'show_chat_list' });
    assert.equal(await page.page.locator('#chat-list').isVisible(), true);
    assert.equal(await page.page.evaluate(() => document.activeElement?.className), 'chat-open');
    await page.host({ type: 'show_chat_list' });
    assert.equal(await page.page.locator('#chat-list').isVisible(), false);
  });
});
