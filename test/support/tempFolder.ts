import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Per test: a fresh folder in the OS temp folder, named `prefix` and a random tail, removed with all
 * in it after the test. Mocha runs hooks in the order they were added, so call this after the hooks
 * that must stop what works in the folder, and before the ones that use the folder.
 */
export function useTempFolder(prefix: string): { readonly path: string } {
  let made: string | undefined;
  beforeEach(() => {
    made = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    if (made !== undefined) {
      rmSync(made, { recursive: true, force: true });
      made = undefined;
    }
  });
  return {
    get path() {
      if (made === undefined) {
        throw new Error('the temp folder is made in beforeEach');
      }
      return made;
    },
  };
}
