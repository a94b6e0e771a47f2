/**
 * The moment the extension's bundle began to run. `extension.ts` imports this module first, so esbuild
 * places it first in `dist/extension.js`: the time from here to the end of `extension.ts`'s own module
 * body is what evaluating the bundle costs (reported with activate()'s own time in the test hooks).
 */
export const bundleStartedAt = performance.now();
