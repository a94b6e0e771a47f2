/**
 * The prompts sent from one composer, walked with ↑/↓ while the box is empty or still shows a
 * recalled one (an edited recall is the user's text and stays).
 */
export class PromptHistory {
  private readonly sent: string[] = [];
  private index = -1;

  /** Whether ↓ may walk back towards the newest (a recalled prompt is showing). */
  get recalling(): boolean {
    return this.index >= 0;
  }

  add(text: string): void {
    this.sent.unshift(text);
    this.index = -1;
  }

  /** The user typed: the walk starts again from the newest. */
  reset(): void {
    this.index = -1;
  }

  /** The text to show after one step older (1) or newer (-1); undefined when the step is not taken. */
  step(current: string, step: 1 | -1): string | undefined {
    const showingRecalled = this.index >= 0 && current === this.sent[this.index];
    if (current !== '' && !showingRecalled) {
      return undefined;
    }
    const index = this.index + step;
    if (index < -1 || index >= this.sent.length) {
      return undefined;
    }
    this.index = index;
    return index === -1 ? '' : (this.sent[index] ?? '');
  }
}
