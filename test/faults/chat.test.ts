import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { AgentDefinition } from '../../src/chat/agentSettings';
import { ChatHarness, until, useReadyChats } from '../unit/support/chatHarness';
import { HOSTILE_AGENT } from './hostile';

function hostileAgent(id: string): AgentDefinition {
  return { id, label: `Hostile ${id}`, command: process.execPath, args: [HOSTILE_AGENT], env: {} };
}

describe('faults: what the user sees in the chat', () => {
  const readyChat = useReadyChats();

  /** A ready chat on the hostile agent that was sent `prompt`, and its turn_ended event. */
  async function endedTurn(prompt: string) {
    const chat = await readyChat({ agents: [hostileAgent('h')] });
    await chat.send(prompt);
    const ended = chat.view.events().find((e) => e.type === 'turn_ended');
    assert.ok(ended?.type === 'turn_ended');
    return { chat, ended };
  }

  it('shows why the agent was stopped after an oversized message, and the next message restarts it', async () => {
    const { chat, ended } = await endedTurn('huge');
    assert.equal(ended.turn.status, 'interrupted');
    assert.match(ended.turn.error?.message ?? '', /sent a message larger than 32 MiB, so it was stopped/);
    await until(() => chat.controller.viewState().status.state === 'error', 'error status');
    const status = chat.controller.viewState().status;
    assert.match(status.error?.message ?? '', /sent a message larger than 32 MiB/);

    await chat.send('hello');
    assert.match(chat.transcript(), /agent:echo hello$/);
    assert.equal(chat.controller.viewState().status.state, 'ready');
  });

  it('ends a turn with a malformed prompt answer in the chat and takes the next message', async () => {
    const { chat, ended } = await endedTurn('null');
    assert.equal(ended.turn.status, 'failed');
    assert.match(ended.turn.error?.message ?? '', /malformed answer to the prompt \(null\)/);
    await chat.send('hello');
    assert.match(chat.transcript(), /agent:echo hello$/);
  });

  it('shows the turn Cancelled at once on Stop, and the late answer does not revive it', async () => {
    const chat = await readyChat({ agents: [hostileAgent('h')] });
    const sending = chat.send('ignore-cancel');
    await until(() => chat.view.events().some((e) => e.type === 'entry_added' && e.entry.kind === 'agent'));
    const stoppedAt = Date.now();
    await chat.controller.handleMessage({ type: 'cancel' });
    await sending;
    assert.ok(Date.now() - stoppedAt < 500, `Stop took ${Date.now() - stoppedAt} ms`);
    const turn = () => chat.controller.viewState().chat?.thread.turns.at(-1);
    assert.equal(turn()?.status, 'cancelled');
    await until(() => chat.transcript().endsWith('working late'), 'the late chunk');
    assert.equal(turn()?.status, 'cancelled');
    await chat.send('hello');
    assert.equal(turn()?.status, 'completed');
  });

  it('says in the chat that part of it could not be read when its journal is damaged', async () => {
    const first = new ChatHarness({ agents: [hostileAgent('h')] });
    await first.ready();
    await first.send('one');
    await first.send('two');
    await first.dispose({ keepStorage: true });
    const folder = path.join(first.storageDir, 'chats');
    const [name] = readdirSync(folder).filter((n) => n.endsWith('.jsonl'));
    const file = path.join(folder, name as string);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    // Garble the line that added the first turn's entries; the later ones must survive.
    const firstEvents = lines.findIndex((line) => line.startsWith('{"t":"events"'));
    lines[firstEvents] = (lines[firstEvents] as string).slice(0, 30);
    writeFileSync(file, lines.join('\n') + '\n');

    const chat = await readyChat({ agents: [hostileAgent('h')], storageDir: first.storageDir });
    const notices = chat.view.events().filter((e) => e.type === 'notice');
    assert.equal(notices.length, 1);
    assert.ok(notices[0]?.type === 'notice');
    assert.equal(notices[0].notice.title, 'Part of this chat could not be read.');
    assert.match(notices[0].notice.description ?? '', /1 unreadable line was skipped/);
    assert.match(chat.transcript(), /agent:echo two/);
    rmSync(first.storageDir, { recursive: true, force: true });
  });
});
