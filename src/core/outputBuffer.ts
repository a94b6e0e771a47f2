/**
 * Terminal output kept within a byte limit by dropping the oldest bytes, never splitting a UTF-8
 * character (ACP's `outputByteLimit` semantics).
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = false;

  constructor(readonly byteLimit: number) {}

  append(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes <= this.byteLimit) {
      return;
    }
    let all = Buffer.concat(this.chunks);
    let start = all.length - this.byteLimit;
    // Step past UTF-8 continuation bytes (10xxxxxx) so the kept text starts on a character.
    while (start < all.length && ((all[start] as number) & 0xc0) === 0x80) {
      start++;
    }
    all = all.subarray(start);
    this.chunks = [all];
    this.bytes = all.length;
    this.dropped = true;
  }

  get truncated(): boolean {
    return this.dropped;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
