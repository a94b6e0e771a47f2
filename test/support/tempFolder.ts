import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { perTest } from './perTest';

/**
 * Per test: a fresh folder in the OS temp folder, named `prefix` and a random tail, removed with all
 * in it after the test. Mocha runs hooks in the order they were added, so call this after the hooks
 * that must stop what works in the folder, and before the ones that use the folder.
 */
export function useTempFolder(prefix: string): { readonly path: string } {
  const folder = perTest(
    'the temp folder',
    () => mkdtempSync(path.join(os.tmpdir(), prefix)),
    (made) => rmSync(made, { recursive: true, force: true }),
  );
  return {
    get path() {
      return folder.value;
    },
  };
}
