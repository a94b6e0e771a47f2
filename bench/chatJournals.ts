// The chats the benches put in the extension's journal, as a user's window holds them.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { openChat, sendPrompt, waitForTurnStatus } from '../test/e2e/support/chat';
import { longChatSnapshot } from './workloads.mjs';

/** The chats' journal folder in the extension's storage (the first chat has been journaled there). */
export function journalDir(userDataDir: string): string {
  const found = readdirSync(join(userDataDir, 'User'), { recursive: true, encoding: 'utf8' }).find(
    (path) => basename(path) === 'chats' && basename(dirname(path)) === 'acp-agents.acp-agents',
  );
  if (found === undefined) {
    throw new Error(`no chat journal folder under ${userDataDir}`);
  }
  return join(userDataDir, 'User', found);
}

/** A user's history after some weeks: the default cap of chats, none named by the user, each this many turns. */
export const HISTORY = { chats: 100, turns: 100 } as const;

/**
 * Journals HISTORY's chats (finished turns, no title given) in the journal folder `chatsDir`, with `agentId`, as the
 * extension reads them back when its window opens.
 */
export function writeHistory(chatsDir: string, agentId: string): void {
  mkdirSync(chatsDir, { recursive: true });
  const thread = longChatSnapshot(HISTORY.turns).view.chat.thread;
  const now = Date.now();
  for (let index = 0; index < HISTORY.chats; index++) {
    // Older than anything the bench sends: the chat the trips run in stays the newest.
    const at = now - 3_600_000 - index;
    const meta = { chatId: `history-${index}`, agentId, createdAt: at, updatedAt: at };
    writeChatJournal(chatsDir, meta, thread);
  }
}

/** Journals one chat (its meta line, then its thread as one snapshot) in the journal folder `chatsDir`. */
export function writeChatJournal(chatsDir: string, meta: { readonly chatId: string }, thread: unknown): void {
  const lines = [JSON.stringify({ t: 'meta', meta }), JSON.stringify({ t: 'snapshot', thread })];
  writeFileSync(join(chatsDir, `${meta.chatId}.jsonl`), `${lines.join('\n')}\n`);
}

/**
 * The window as a user's after some weeks: HISTORY's chats journaled beside the one just used, read back by a
 * reload; the chat shown again, its agent started by a first prompt. The round trips run in it.
 */
export async function withHistory(page: Page, userDataDir: string): Promise<Frame> {
  writeHistory(journalDir(userDataDir), 'demo');
  await page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  const chat = await openChat(page);
  const again = await sendPrompt(chat, 'hello again');
  await waitForTurnStatus(chat, again, 'completed', { timeout: 60_000 });
  return chat;
}
