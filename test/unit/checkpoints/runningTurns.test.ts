import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { until } from '../support/chatHarness';
import { useReviewedChat } from '../support/oneStore';
import { useTempFolder } from '../../support/tempFolder';

/**
 * Two chats on one folder: Undo, Undo all and Restore of chat A while chat B's turn runs ask first, with
 * B named and the files listed; declining changes nothing. Chat B's turn is held by a shell step that
 * reads a FIFO outside the workspace: the test ends it by writing that FIFO (no sleeps).
 */
describe('running turns: undoing while another chat on the same folder runs asks first', () => {
  const reviewed = useReviewedChat();
  const gateDir = useTempFolder('acp-gate-');
  let gate: string;

  beforeEach(() => {
    gate = path.join(gateDir.path, 'go');
    execFileSync('mkfifo', [gate]);
  });

  function file(name: string): string {
    return path.join(reviewed.chat.dir, name);
  }

  function turns(): readonly TurnMessage[] {
    return reviewed.chat.controller.viewState().chat?.thread.turns ?? [];
  }

  function activeChatId(): string {
    return reviewed.chat.controller.viewState().chat?.chatId as string;
  }

  /** Chat A changes a.txt and ends; chat B (a new chat, active afterwards) starts writing b.txt and waits on the gate. */
  async function aDoneWhileBRuns(): Promise<{ a: string; b: string; aTurn: string; bEnded: Promise<void> }> {
    writeFileSync(file('a.txt'), 'a0\n');
    await reviewed.chat.ready();
    await reviewed.chat.send('own write a.txt a1');
    await until(() => turns()[0]?.changes?.live === false, 'chat A’s final change list');
    const a = activeChatId();
    const aTurn = turns()[0]?.id as string;
    await reviewed.chat.controller.handleMessage({ type: 'new_chat' });
    await reviewed.chat.controller.connectActive();
    const b = activeChatId();
    assert.notEqual(a, b);
    const bEnded = reviewed.chat.send(`own write b.txt b1 ; shell cat ${gate}`);
    await until(() => turns()[0]?.status === 'running', 'chat B’s turn to run');
    await until(() => existsSync(file('b.txt')), 'chat B to write b.txt');
    await reviewed.chat.controller.handleMessage({ type: 'switch_chat', chatId: a });
    return { a, b, aTurn, bEnded };
  }

  async function endB(bEnded: Promise<void>): Promise<void> {
    await writeFile(gate, 'go\n');
    await bEnded;
  }

  it('Undo all in chat A while chat B runs asks with B named and A’s files listed; after B ends it does not ask', async () => {
    const { aTurn, bEnded } = await aDoneWhileBRuns();
    const bTitle = reviewed.chat.controller.viewState().chats?.find((c) => c.running)?.title ?? '';
    assert.match(bTitle, /own write b\.txt/);

    reviewed.port.answer = false;
    await reviewed.chat.controller.handleMessage({ type: 'turn_changes', turnId: aTurn, action: 'undo' });
    assert.equal(reviewed.port.confirmations.length, 1, 'asked once');
    const [asked] = reviewed.port.confirmations;
    assert.ok(asked?.message.includes(`“${bTitle}”`), `B is named: ${asked?.message}`);
    assert.match(asked?.message ?? '', /is running on this folder.*Undo 1 file anyway\?/);
    assert.equal(asked?.detail, 'a.txt');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a1', 'declining does nothing');
    assert.equal(turns()[0]?.changes?.files[0]?.decision, 'pending');

    await endB(bEnded);
    await until(
      () => reviewed.chat.controller.viewState().chats?.every((c) => !c.running) ?? false,
      'chat B to end',
    );
    reviewed.port.confirmations.length = 0;
    reviewed.port.answer = true;
    await reviewed.chat.controller.handleMessage({ type: 'turn_changes', turnId: aTurn, action: 'undo' });
    assert.deepEqual(reviewed.port.confirmations, [], 'no other chat runs: no question');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a0\n', 'undone');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'b1', 'chat B’s file is not chat A’s to undo');
  });

  it('Restore in chat A while chat B runs asks, listing the files it would put back; declining leaves B’s files', async () => {
    const { aTurn, bEnded } = await aDoneWhileBRuns();
    reviewed.port.answer = false;
    await reviewed.chat.controller.handleMessage({ type: 'restore_checkpoint', turnId: aTurn });
    const asked = reviewed.port.confirmations.find((c) => /is running on this folder/.test(c.message));
    assert.ok(asked, `asked about the running chat: ${JSON.stringify(reviewed.port.confirmations)}`);
    assert.match(asked.message, /Restore \d+ files? anyway\?/);
    assert.match(asked.detail, /a\.txt/);
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a1', 'declining does nothing');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'b1', 'B’s file stays');
    await endB(bEnded);
  });
});
