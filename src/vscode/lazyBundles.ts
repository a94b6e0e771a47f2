import * as vscode from 'vscode';

/**
 * Loading parts of the extension on first use. The chat (`dist/chat.js`) and the features it rarely
 * needs — checkpoints, the doctor, MCP, the @-mention index, the ACP Registry — are bundles of their own
 * in `dist/` (built by esbuild.mjs), `require`d by path the first time they are used, so that neither
 * activating the extension nor opening the chat pays for them.
 */

/**
 * A bundle's exports, loaded by the first call. Callers name the path with a literal
 * `joinPath` of the extension's folder, `'dist'` and the file's name: scripts/package.mjs follows those to the
 * files the .vsix must hold. Node caches the module: later calls cost a lookup.
 */
export function requireBundle<T>(path: string): T {
  // A path, not a module name: esbuild leaves it alone and the bundle stays one of its own.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path) as T;
}

/** A value made on first use (typically from a lazily loaded bundle); disposed only if it was made. */
export class OnFirstUse<T> implements vscode.Disposable {
  private value: T | undefined;
  private made = false;

  constructor(private readonly make: () => T) {}

  get(): T {
    if (!this.made) {
      this.value = this.make();
      this.made = true;
    }
    return this.value as T;
  }

  dispose(): void {
    const value = this.value as Partial<vscode.Disposable> | undefined;
    this.value = undefined;
    this.made = false;
    value?.dispose?.();
  }
}

/** What a command runs, keyed by command id. */
export type CommandHandlers = Readonly<Record<string, (...args: unknown[]) => unknown>>;

/**
 * Registers `ids` now — so the commands exist as soon as the chat does — with handlers that come
 * from `handlers()`, called (loading its bundle) with the first run of any of them.
 */
export function registerLazyCommands(
  ids: readonly string[],
  handlers: () => CommandHandlers,
): vscode.Disposable[] {
  return ids.map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      const handler = handlers()[id];
      if (!handler) {
        throw new Error(`The command ${id} is not in the bundle that should handle it.`);
      }
      return handler(...args);
    }),
  );
}
