/**
 * The writes Undo and Restore are making to the workspace. A checkpoint waits for them: a message sent
 * right after Undo (before its files are all back) must get a checkpoint of the files as the Undo left
 * them — one taken half way would list the Undo's own deletions as the next turn's, and call the folder
 * it was changing "not known", so that turn's new files could not be undone.
 */
export class WritesInFlight {
  private readonly running = new Set<Promise<unknown>>();

  /** Runs `write`, known to be in flight until it settles. */
  async run<T>(write: () => Promise<T>): Promise<T> {
    const running = write();
    this.running.add(running);
    try {
      return await running;
    } finally {
      this.running.delete(running);
    }
  }

  /** Resolves once every write in flight now has ended, however it ended. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
