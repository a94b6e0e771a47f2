/**
 * What every part of the chat's composition root shares (src/chatHost.ts, src/chatFeatures.ts): the
 * extension's context and log, the dialog seam, the agents' folder, the bundles loaded on first use, and
 * the list of lifetimes the built chat disposes.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Logger } from './core/ports';
import type lazyBundleList from './lazyBundles.json';
import { requireBundle } from './vscode/lazyBundles';
import { channelLogger } from './vscode/logChannel';
import { SwappablePrompts, VsCodeUserPrompts } from './vscode/userPrompts';

/** A bundle the chat loads on first use (src/lazyBundles.json; built by esbuild.mjs into dist/<name>.js). */
export type LazyBundle = keyof typeof lazyBundleList;

export interface ChatBase {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly logger: Logger;
  /** The dialog seam: tests install scripted answers here instead of skipping dialogs. */
  readonly prompts: SwappablePrompts;
  /** The folder agents run in when a chat has none of its own: the first workspace folder, else home. */
  readonly cwd: () => string;
  /** A bundle's exports, loaded by the first call. */
  bundle<T>(name: LazyBundle): T;
  /** Keeps `disposable` until the chat is disposed (last owned, first disposed). */
  own<T extends vscode.Disposable>(disposable: T): T;
}

/** The shared part, owning what it is given in `lifetimes`. */
export function chatBase(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  lifetimes: vscode.Disposable[],
): ChatBase {
  return {
    context,
    log,
    logger: channelLogger(log),
    prompts: new SwappablePrompts(new VsCodeUserPrompts()),
    cwd: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir(),
    bundle: <T>(name: LazyBundle): T =>
      requireBundle<T>(vscode.Uri.joinPath(context.extensionUri, 'dist', `${name}.js`).fsPath),
    own: (disposable) => {
      lifetimes.push(disposable);
      return disposable;
    },
  };
}
