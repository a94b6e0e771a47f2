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
}
