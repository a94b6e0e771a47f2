import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { diffLines } from 'diff';
import { BINARY_SNIFF_BYTES, looksBinary } from '../../../core/files/binaryContent';

/** Thrown for a path that is not a regular file (a FIFO, socket, device, folder) or is too large. */
export class NotARegularFileError extends Error {
  constructor(file: string, why: string) {
    super(`${file} ${why}`);
    this.name = 'NotARegularFileError';
  }
}

/**
 * Opens `file` to read only if it is a regular file of at most `maxBytes`; resolves with its size then.
 * Opened without blocking and checked on the open handle: a FIFO put in a file's place would otherwise
 * hang the read forever (and a check before opening could be raced). Links are followed, as any read would.
 */
async function openRegularFile(
  file: string,
  maxBytes: number,
): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new NotARegularFileError(file, 'is not a regular file');
    }
    if (info.size > maxBytes) {
      throw new NotARegularFileError(file, `is larger than ${maxBytes} bytes`);
    }
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * A regular file's bytes (see `openRegularFile`); rejects for anything else or a larger file. The size the
 * open handle gave is read, no more (the file is not asked for its size again: one step less); a file that
 * reports no size (as /proc's do) is read to its end, as long as that is within `maxBytes`.
 */
export async function readRegularFile(file: string, maxBytes: number): Promise<Buffer> {
  const { handle, size } = await openRegularFile(file, maxBytes);
  try {
    if (size === 0) {
      return await readToEnd(handle, file, maxBytes);
    }
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(bytes, read, size - read, read);
      if (bytesRead === 0) {
        break; // cut short since it was opened
      }
      read += bytesRead;
    }
    return bytes.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** Read at a time from a file that reports no size. */
const UNSIZED_CHUNK_BYTES = 64 * 1024;

async function readToEnd(handle: FileHandle, file: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(UNSIZED_CHUNK_BYTES, maxBytes - total + 1));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) {
      return Buffer.concat(chunks, total);
    }
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) {
      throw new NotARegularFileError(file, `is larger than ${maxBytes} bytes`);
    }
  }
}

/** Reads only the start of a file to tell whether it is binary (never blocking on a FIFO). */
export async function fileLooksBinary(filePath: string): Promise<boolean> {
  const { handle } = await openRegularFile(filePath, Number.MAX_SAFE_INTEGER);
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Past this many changed lines a file counts as rewritten (every line removed and added): Myers' diff
 * costs O(N·D), and a large file replaced wholesale must not hold the extension host.
 */
const MAX_EDIT_LENGTH = 5_000;

/**
 * Lines added and removed between two versions of a text, for a store that has no git to ask:
 * jsdiff's line diff (Myers, as git's default). Bytes are read as latin1, so any encoding diffs by
 * its bytes; a last line without a newline differs from the same line with one, as in git.
 */
export function countLineChanges(
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
): { added: number; removed: number } {
  const old = latin1(before);
  const now = latin1(after);
  const changes = diffLines(old, now, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes === undefined) {
    return { added: lineCount(now), removed: lineCount(old) };
  }
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    if (change.added) {
      added += change.count;
    } else if (change.removed) {
      removed += change.count;
    }
  }
  return { added, removed };
}

function latin1(bytes: Uint8Array | undefined): string {
  return bytes === undefined
    ? ''
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Lines of a text, a last line without a newline included. */
function lineCount(text: string): number {
  if (text === '') {
    return 0;
  }
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}
