import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import {
  added,
  appended,
  CHAT_ID,
  chatSummary,
  events,
  message,
  snapshot,
  status,
  toolCall,
  turn,
} from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

describe('webview: handshake, snapshot and store', () => {
  const chat = useChatPages();

  it('posts ready once on load', async () => {
    const page = await chat.open();
    assert.deepEqual(await page.posted(), [{ type: 'ready' }]);
  });

  it('renders a snapshot: title, entries in order, agent picker', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [
          message('user', 'e1', 'Hello agent'),
          message('agent', 'e2', 'Hello **human**'),
          toolCall('e3', { title: 'Read README.md', status: 'completed' }),
        ],
        turns: [turn('t1', { status: 'completed', stopReason: 'end_turn', endedAt: 1_700_000_001_000 })],
        state: { configOptions: [], commands: [], plan: [], title: 'Greetings' },
      }),
    );
    const { page: p } = page;
    assert.equal(await p.locator('.session-title').textContent(), 'Greetings');
    const ids = await p
      .locator('[data-entry-id]')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.entryId));
    assert.deepEqual(ids, ['e1', 'e2', 'e3']);
    assert.equal(await p.locator('.entry-agent strong').textContent(), 'human');
    assert.equal(await p.locator('.tool-title').textContent(), 'Read README.md');
    assert.equal(
      await p.locator('select[aria-label="Agent"]').evaluate((e) => (e as HTMLSelectElement).value),
      'copilot',
    );
  });

  it('applies events like the core thread: append, replace, turns by id', async () => {
    const page = await chat.openShowing(snapshot());
    await page.host(
      events(
        { type: 'turn_started', turn: turn('t1') },
        added(message('user', 'e1', 'Count to three')),
        added(message('agent', 'e2', 'One')),
        appended('e2', ', two'),
        appended('e2', ', three.'),
      ),
    );
    assert.equal(await page.page.locator('.entry-agent .markdown').innerText(), 'One, two, three.');
    await page.host(events({ type: 'entry_updated', entry: message('agent', 'e2', 'Replaced') }));
    assert.equal(await page.page.locator('.entry-agent .markdown').innerText(), 'Replaced');
    await page.host(events({ type: 'turn_ended', turn: turn('t1', { status: 'cancelled' }) }));
    assert.equal(await page.page.locator('.turn').count(), 1);
    assert.equal(await page.page.locator('.turn-cancelled').innerText(), 'Cancelled');
  });

  it('shows text appended to a message it never received, warns, and ignores text appended to a tool call', async () => {
    const page = await chat.openShowing(snapshot({ entries: [toolCall('e1', { title: 'Run tests' })] }));
    const warnings: string[] = [];
    page.page.on('console', (m) => {
      if (m.type() === 'warning') {
        warnings.push(m.text());
      }
    });
    await page.host(events(appended('e7', 'The start was lost, '), appended('e7', 'the rest is here.')));
    assert.equal(
      await page.page.locator('[data-entry-id="e7"] .markdown').innerText(),
      'The start was lost, the rest is here.',
    );
    await page.host(events(appended('e1', 'stray text')));
    assert.equal(await page.page.locator('.tool-title').innerText(), 'Run tests');
    assert.doesNotMatch(await page.page.locator('[data-entry-id="e1"]').innerText(), /stray text/);
    assert.deepEqual(warnings, [
      'ACP chat: text for unknown message e7, shown as a new message',
      'ACP chat: text appended to tool_call entry e1, which has no text',
    ]);
  });

  it('ignores batches for another chat', async () => {
    const page = await chat.openShowing(snapshot());
    await page.host({
      type: 'thread_events',
      chatId: 'chat-old',
      events: [added(message('agent', 'x1', 'stale'))],
    });
    assert.equal(await page.page.locator('[data-entry-id]').count(), 0);
    await page.host({
      type: 'thread_events',
      chatId: CHAT_ID,
      events: [added(message('agent', 'x2', 'fresh'))],
    });
    assert.equal(await page.page.locator('[data-entry-id="x2"]').count(), 1);
  });

  it('shows an invalid host message as an inline error and keeps working', async () => {
    const page = await chat.openShowing(snapshot());
    const warnings: string[] = [];
    page.page.on('console', (m) => {
      if (m.type() === 'warning') {
        warnings.push(m.text());
      }
    });
    await page.hostRaw({ type: 'thread_events', chatId: CHAT_ID, events: [{ type: 'entry_added' }] });
    await page.hostRaw({ type: 'no_such_message' });
    await page.hostRaw('not even an object');
    assert.equal(await page.page.locator('.alert-warning').count(), 3);
    assert.match(await page.page.locator('.alert-warning').first().innerText(), /invalid message/);
    assert.ok(
      warnings.some((text) => text.includes('invalid message')),
      'logged with console.warn',
    );
    await page.host(events(added(message('agent', 'e9', 'still alive'))));
    assert.equal(await page.page.locator('[data-entry-id="e9"] .markdown').innerText(), 'still alive');
  });

  it('applies messages sent together (one post) in order, each parsed on its own', async () => {
    const page = await chat.openShowing(snapshot());
    await page.hostRaw([
      events(added(message('agent', 'b1', 'first'))),
      { type: 'no_such_message' },
      events(added(message('agent', 'b2', 'second'))),
    ]);
    assert.equal(await page.page.locator('.alert-warning').count(), 1, 'only the bad one is reported');
    assert.deepEqual(await page.page.locator('[data-entry-id^="b"] .markdown').allInnerTexts(), [
      'first',
      'second',
    ]);
  });

  it('shows a short empty state with Add Agent… first, naming the agent and the offline demo (300 px)', async () => {
    const page = await chat.openShowing(
      snapshot({}, { selectedAgentId: 'demo', status: { state: 'idle' } }),
      { width: 300, height: 600 },
    );
    const empty = page.page.locator('.empty-state');
    const text = await empty.innerText();
    assert.match(text, /Chat with Demo agent \(offline\)/);
    assert.match(text, /type help/);
    assert.match(text, /Type @ to add files/);
    // Short: read at the default sidebar width without scrolling, with the first step first.
    const words = text.split(/\s+/).filter(Boolean).length;
    assert.ok(words <= 50, `${words} words`);
    assert.equal(
      await empty.evaluate((state) => state.querySelector('button, vscode-button')?.textContent),
      'Add Agent…',
      'Add Agent… is the first control',
    );
    const title = await page.page.locator('.empty-title').boundingBox();
    const add = await page.page.locator('.empty-add-agent').boundingBox();
    assert.ok(title && add && add.y - (title.y + title.height) < 24, 'Add Agent… sits right under the title');
    assert.ok(add.y + add.height < 300, `Add Agent… is ${Math.round(add.y)} px down the view`);
    await page.page.screenshot({ path: `${OUT}/empty-state-300.png` });
    await page.page.locator('.empty-add-agent').click();
    assert.deepEqual(
      (await page.posted()).filter((message) => message.type === 'add_agent'),
      [{ type: 'add_agent' }],
    );
    await page.host(events(added(message('user', 'e1', 'hi'))));
    assert.equal(await page.page.locator('.empty-state').count(), 0);
  });

  it('a click on Add Agent… is not lost when the empty state is made again under it', async () => {
    const page = await chat.openShowing(snapshot({}, { selectedAgentId: 'demo', status: { state: 'idle' } }));
    const add = await page.page.locator('.empty-add-agent').boundingBox();
    assert.ok(add);
    await page.page.mouse.move(add.x + add.width / 2, add.y + add.height / 2);
    await page.page.mouse.down();
    // What the empty state says changes between the press and the release (the chat list arrived).
    const twins = [
      chatSummary({ chatId: 'older', title: 'New chat' }),
      chatSummary({ chatId: 'newer', title: 'New chat' }),
    ];
    await page.host({ type: 'chats', chats: twins, activeChatId: CHAT_ID });
    assert.equal(await page.page.locator('.recent-chat').count(), 2, 'the empty state was made again');
    await page.page.mouse.up();
    const asked = (type: string) => page.posted().then((all) => all.filter((posted) => posted.type === type));
    assert.deepEqual(await asked('add_agent'), [{ type: 'add_agent' }]);
    // Two recent chats that read the same, listed the other way round: each still opens its own chat.
    await page.host({ type: 'chats', chats: [...twins].reverse(), activeChatId: CHAT_ID });
    await page.page.screenshot({ path: `${OUT}/empty-state-made-again.png` });
    await page.page.locator('.recent-chat').first().click();
    assert.deepEqual(await asked('switch_chat'), [{ type: 'switch_chat', chatId: 'newer' }]);
  });

  it('with a real agent, the tips come first and Add another agent… after them', async () => {
    const page = await chat.openShowing(snapshot({}, { selectedAgentId: 'copilot' }), {
      width: 300,
      height: 600,
    });
    const empty = page.page.locator('.empty-state');
    assert.match(await empty.innerText(), /Ask Copilot CLI to explain, fix or build something\./);
    assert.equal(await empty.locator('.empty-demo').count(), 0);
    assert.equal(
      await empty.evaluate((state) => state.querySelector('button, vscode-button')?.textContent),
      'Add another agent…',
    );
  });

  it('shows "Starting <agent>…" while the agent starts', async () => {
    const page = await chat.openShowing(snapshot({}, { status: { state: 'idle' } }));
    await page.host(status({ state: 'starting', agentName: 'Claude Code' }));
    assert.equal(await page.page.locator('.status-starting').innerText(), 'Starting Claude Code…');
    assert.equal(
      await page.page
        .locator('.status-starting .progress-ring[role="alert"][aria-label="Starting"] svg')
        .count(),
      1,
    );
    await page.host(status({ state: 'ready', agentName: 'Claude Code' }));
    assert.equal(await page.page.locator('.status-starting').count(), 0);
  });

  it('keeps the composer draft across a reload (vscode.setState)', async () => {
    const page = await chat.openShowing(snapshot());
    await page.page.locator('.composer-input').fill('half-written thought');
    await page.page.reload();
    await page.waitForReady();
    await page.host(snapshot());
    assert.equal(await page.page.locator('.composer-input').inputValue(), 'half-written thought');
  });
});
