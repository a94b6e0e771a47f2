/**
 * Terminal output kept within a byte limit by dropping the oldest bytes, never splitting a UTF-8
 * character (ACP's `outputByteLimit` semantics). A queue of the chunks as they arrived: an append
 * past the limit drops or trims chunks at the head, so its cost does not depend on how much is
 * held (the old buffer was copied whole on every append past the limit).
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  /** Index of the oldest chunk still held (chunks before it are dropped). */
  private head = 0;
  private bytes = 0;
  private dropped = false;
  private appended = 0;

  constructor(readonly byteLimit: number) {}

  append(chunk: Buffer): void {
    if (chunk.length === 0) {
      return;
    }
    this.appended += chunk.length;
    const oversized = chunk.length > this.byteLimit;
    if (oversized) {
      // Only the tail can survive: do not hold (or copy) the rest.
      chunk = chunk.subarray(chunk.length - this.byteLimit);
      this.chunks = [];
      this.head = 0;
      this.bytes = 0;
      this.dropped = true;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes <= this.byteLimit) {
      if (oversized) {
        this.skipContinuationBytes();
      }
      return;
    }
    this.dropped = true;
    let excess = this.bytes - this.byteLimit;
    while (excess > 0) {
      const first = this.chunks[this.head] as Buffer;
      if (first.length <= excess) {
        this.head++;
        this.bytes -= first.length;
        excess -= first.length;
      } else {
        this.chunks[this.head] = first.subarray(excess);
        this.bytes -= excess;
        excess = 0;
      }
    }
    this.skipContinuationBytes();
    if (this.head > 64 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /** The kept text must start on a character: step past UTF-8 continuation bytes (10xxxxxx). */
  private skipContinuationBytes(): void {
    while (this.head < this.chunks.length) {
      const first = this.chunks[this.head] as Buffer;
      let start = 0;
      while (start < first.length && ((first[start] as number) & 0xc0) === 0x80) {
        start++;
      }
      this.bytes -= start;
      if (start < first.length) {
        this.chunks[this.head] = first.subarray(start);
        return;
      }
      this.head++;
    }
  }

  /** Bytes held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Drops everything held (the window's output budget went to newer terminals); later output is kept again. */
  dropAll(): void {
    if (this.bytes > 0) {
      this.chunks = [];
      this.head = 0;
      this.bytes = 0;
      this.dropped = true;
    }
  }

  get truncated(): boolean {
    return this.dropped;
  }

  /** Bytes appended since the start (also the ones dropped since): an offset for deltas. */
  get totalBytes(): number {
    return this.appended;
  }

  text(): string {
    return Buffer.concat(this.chunks.slice(this.head)).toString('utf8');
  }

  /**
   * What was appended after byte `offset` (counted like `totalBytes`) when all of it is still
   * held — a delta costing only its own size — else undefined. It ends on a whole character;
   * `end` is the offset to ask from next time (a character cut by the pipe comes then).
   */
  since(offset: number): { bytes: Buffer; end: number } | undefined {
    if (offset < this.appended - this.bytes || offset > this.appended) {
      return undefined;
    }
    let needed = this.appended - offset;
    const parts: Buffer[] = [];
    for (let i = this.chunks.length - 1; i >= this.head && needed > 0; i--) {
      const chunk = this.chunks[i] as Buffer;
      parts.push(chunk.length <= needed ? chunk : chunk.subarray(chunk.length - needed));
      needed -= Math.min(chunk.length, needed);
    }
    const bytes = Buffer.concat(parts.reverse());
    const whole = bytes.subarray(0, bytes.length - incompleteTail(bytes));
    return { bytes: whole, end: offset + whole.length };
  }

  /** Everything held, ending on a whole character, and the offset to ask `since` from next. */
  held(): { bytes: Buffer; end: number } {
    return this.since(this.appended - this.bytes) as { bytes: Buffer; end: number };
  }
}

/** Bytes at the end of `bytes` that start a UTF-8 character not yet complete. */
function incompleteTail(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const byte = bytes[i] as number;
    if ((byte & 0xc0) === 0x80) {
      continue;
    }
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    const have = bytes.length - i;
    return have < length ? have : 0;
  }
  return 0;
}
