/** The best `limit` (index, score) pairs offered in index order, best first; a tie keeps the earlier. */
export class TopScores {
  private readonly index: Int32Array;
  private readonly score: Float64Array;
  private size = 0;

  constructor(private readonly limit: number) {
    const capacity = Math.max(0, limit);
    this.index = new Int32Array(capacity);
    this.score = new Float64Array(capacity);
  }

  get full(): boolean {
    return this.size >= this.limit;
  }

  /** The lowest score kept (when full: what a path must beat). */
  get worst(): number {
    return this.size === 0 ? -Infinity : (this.score[this.size - 1] as number);
  }

  /** Whether `score` would be kept (offered after every kept one: a tie loses). */
  beats(score: number): boolean {
    return this.size < this.limit || score > (this.score[this.size - 1] as number);
  }

  offer(index: number, score: number): void {
    if (!this.beats(score)) {
      return;
    }
    let at = Math.min(this.size, this.limit - 1);
    while (at > 0 && (this.score[at - 1] as number) < score) {
      this.index[at] = this.index[at - 1] as number;
      this.score[at] = this.score[at - 1] as number;
      at--;
    }
    this.index[at] = index;
    this.score[at] = score;
    this.size = Math.min(this.size + 1, this.limit);
  }

  indices(): number[] {
    return Array.from(this.index.subarray(0, this.size));
  }
}
