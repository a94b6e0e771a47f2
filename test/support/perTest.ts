/** What `perTest` makes for each test. */
export interface PerTestValue<T> {
  /** The running test's value (there is none outside a test). */
  readonly value: T;
  /** Ends the running test's value and makes another in its place, ended after the test in turn. */
  replace(make: () => T | Promise<T>): Promise<void>;
}

/**
 * Per test: `make()` before each test and `end(value)` after it, so a test that fails half-way leaves
 * nothing behind. Mocha runs hooks in the order they were added: call this after the hooks that must stop
 * what uses the value, and before the ones that use it. `what` names the value in the error read outside
 * a test.
 */
export function perTest<T>(
  what: string,
  make: () => T | Promise<T>,
  end: (value: T) => unknown,
): PerTestValue<T> {
  let made: { value: T } | undefined;
  const endMade = async (): Promise<void> => {
    const ending = made;
    made = undefined;
    if (ending !== undefined) {
      await end(ending.value);
    }
  };
  beforeEach(async () => {
    made = { value: await make() };
  });
  afterEach(endMade);
  return {
    get value() {
      if (made === undefined) {
        throw new Error(`${what} is made in beforeEach`);
      }
      return made.value;
    },
    async replace(next) {
      await endMade();
      made = { value: await next() };
    },
  };
}
