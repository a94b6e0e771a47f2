/** What a test starts and must end: a harness (`dispose`) or a process (`stop`). */
export type Endable = { dispose(): unknown } | { stop(): unknown };

/**
 * Per test: `owned(value)` hands `value` back and ends it after the test (the last owned first), so a
 * test that fails half-way leaves no chat, agent process or temp folder behind.
 */
export function ownedPerTest(): <T extends Endable>(value: T) => T {
  const owned: Endable[] = [];
  afterEach(async () => {
    for (const value of owned.splice(0).reverse()) {
      await ('dispose' in value ? value.dispose() : value.stop());
    }
  });
  return (value) => {
    owned.push(value);
    return value;
  };
}
