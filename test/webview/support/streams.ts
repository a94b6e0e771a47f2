import type { ChatPage } from './chatPage';
import { appended, events, message, snapshot, turn } from './builders';

/**
 * The streamed message's markdown after each chunk, then the same texts each rendered once.
 * `beforeChunk` runs before each chunk is sent (with its index).
 */
export async function streamedAndOnce(
  page: ChatPage,
  chunks: readonly string[],
  beforeChunk?: (index: number) => Promise<void>,
): Promise<{ streamed: string[]; once: string[] }> {
  const html = () => page.page.locator('[data-entry-id="s"] .markdown').evaluate((root) => root.innerHTML);
  await page.host(snapshot({ entries: [message('agent', 's', '')], turns: [turn('t1')] }));
  const streamed: string[] = [];
  for (const [index, chunk] of chunks.entries()) {
    await beforeChunk?.(index);
    await page.host(events(appended('s', chunk)));
    streamed.push(await html());
  }
  const once: string[] = [];
  for (let end = 1; end <= chunks.length; end++) {
    await page.host(snapshot({ entries: [message('agent', 's', chunks.slice(0, end).join(''))] }));
    once.push(await html());
  }
  return { streamed, once };
}

