/**
 * What the extension gives `getExtension(...).exports`. Its internals — the chat controller, the
 * swappable dialog seam, the permission rules — would let any other installed extension answer
 * our permission dialogs and edit reviews or read the chats, so other extensions get nothing.
 * Only an extension host started for tests (`ExtensionMode.Test`) receives the test hooks.
 *
 * Free of `vscode` so the rule is unit-tested; `extension.ts` maps VS Code's mode onto it.
 */
export type ExtensionRunMode = 'production' | 'development' | 'test';

export function extensionExports<Hooks>(mode: ExtensionRunMode, testHooks: () => Hooks): Hooks | undefined {
  return mode === 'test' ? testHooks() : undefined;
}

/** How long activating took, measured inside the extension host (milliseconds, `performance.now()`). */
export interface ActivationTimings {
  /** Evaluating `dist/extension.js` (from its first statement to the end of `extension.ts`'s module body). */
  readonly bundleEvaluationMs: number;
  /** `activate()` itself, from its first statement to its return. */
  readonly activateMs: number;
}
