/** VS Code's `workspaceState` as it keeps values: a key-value store with a JSON round trip, as on disk. */
export class MemoryState {
  private readonly values = new Map<string, string>();

  get(key: string): unknown {
    const raw = this.values.get(key);
    return raw === undefined ? undefined : JSON.parse(raw);
  }

  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) {
      this.values.delete(key);
    } else {
      this.values.set(key, JSON.stringify(value));
    }
  }
}
