import { open } from 'node:fs/promises';
import { BINARY_SNIFF_BYTES, looksBinary } from '../../../core/binaryContent';

/** Reads only the start of a file to tell whether it is binary. */
export async function fileLooksBinary(filePath: string): Promise<boolean> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Lines of a text, split after each `\n` (a last line without one still counts). */
function linesOf(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (text === '') {
    return [];
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') {
    lines.pop();
  } else {
    // Marks the unterminated last line so that adding a newline to it counts as a change, as in git.
    lines[lines.length - 1] += '\0';
  }
  return lines;
}

/**
 * Lines added and removed between two versions of a text, for a store that has no git to ask. The
 * common start and end are matched exactly; in between, lines are matched as a multiset — linear, and
 * equal to a real diff's counts except when lines move.
 */
export function countLineChanges(
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
): { added: number; removed: number } {
  const old = before === undefined ? [] : linesOf(before);
  const now = after === undefined ? [] : linesOf(after);
  let start = 0;
  while (start < old.length && start < now.length && old[start] === now[start]) {
    start++;
  }
  let oldEnd = old.length;
  let nowEnd = now.length;
  while (oldEnd > start && nowEnd > start && old[oldEnd - 1] === now[nowEnd - 1]) {
    oldEnd--;
    nowEnd--;
  }
  const remaining = new Map<string, number>();
  for (let i = start; i < oldEnd; i++) {
    const line = old[i]!;
    remaining.set(line, (remaining.get(line) ?? 0) + 1);
  }
  let added = 0;
  for (let i = start; i < nowEnd; i++) {
    const line = now[i]!;
    const count = remaining.get(line) ?? 0;
    if (count > 0) {
      remaining.set(line, count - 1);
    } else {
      added++;
    }
  }
  let removed = 0;
  for (const count of remaining.values()) {
    removed += count;
  }
  return { added, removed };
}
