import { bundleStartedAt } from './activationClock';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from './chatHost';
import { extensionExports, type ActivationTimings, type ExtensionRunMode } from './exports';
import { contributedCommandIds } from './contributedCommands';
import { LazyChatHost } from './lazyChatHost';

export type { AcpAgentsApi } from './chatHost';

/** The end of this bundle's own evaluation: everything above is what loading `dist/extension.js` ran. */
const bundleEvaluatedAt = performance.now();

/** The test hooks: the chat's (built on first access) plus how long activating took. */
export interface AcpAgentsTestHooks extends AcpAgentsApi {
  readonly activation: ActivationTimings;
  /** Whether the chat bundle has been loaded yet (activating alone must not load it). */
  readonly chatLoaded: boolean;
}

/**
 * Composition root. Activating registers only thin stand-ins — the view provider, the editor-tab
 * serializer and every contributed command — and the chat itself (`dist/chat.js`: the ACP SDK, the
 * schemas, the controller, the journal) loads on their first use (see `LazyChatHost`).
 */
export function activate(context: vscode.ExtensionContext): AcpAgentsTestHooks | undefined {
  const activateStartedAt = performance.now();
  const log = vscode.window.createOutputChannel('ACP Agents', { log: true });
  const chat = new LazyChatHost(context, log, contributedCommandIds(context.extension.packageJSON));
  context.subscriptions.push(
    log,
    chat,
    vscode.window.registerWebviewViewProvider('acpAgents.chat', chat.viewProvider(), {
      webviewOptions: { retainContextWhenHidden: keepViewWhenHidden() },
    }),
    vscode.window.registerWebviewPanelSerializer('acpAgents.chatPanel', chat.panelSerializer()),
  );
  shutdown = () => chat.shutdown();
  const activation: ActivationTimings = {
    bundleEvaluationMs: bundleEvaluatedAt - bundleStartedAt,
    activateMs: performance.now() - activateStartedAt,
  };
  return extensionExports(runMode(context.extensionMode), () => testHooks(chat, activation));
}

/** Getters, so that reading one builds the chat and merely activating does not. */
function testHooks(chat: LazyChatHost, activation: ActivationTimings): AcpAgentsTestHooks {
  const api = (): AcpAgentsApi => chat.get().api;
  return {
    activation,
    get chatLoaded() {
      return chat.isLoaded;
    },
    get chat() {
      return api().chat;
    },
    get prompts() {
      return api().prompts;
    },
    get writeReviews() {
      return api().writeReviews;
    },
    get terminals() {
      return api().terminals;
    },
    get statusBar() {
      return api().statusBar;
    },
    get chatActivity() {
      return api().chatActivity;
    },
    get rules() {
      return api().rules;
    },
    get catalog() {
      return api().catalog;
    },
    get panels() {
      return api().panels;
    },
    get mcp() {
      return api().mcp;
    },
    get mentions() {
      return api().mentions;
    },
    get checkpoints() {
      return api().checkpoints;
    },
    get hunks() {
      return api().hunks;
    },
    get sidebar() {
      return api().sidebar;
    },
    get registry() {
      return api().registry;
    },
  };
}

/**
 * `acpAgents.chat.keepViewWhenHidden` (default on): the sidebar chat's page stays loaded while the view is
 * hidden, so showing it again is instant (25–35 ms for 200 turns instead of 0.6–1 s: a new page, its script,
 * the host's snapshot, the chat rebuilt) for ~6 MiB of JS heap meanwhile (docs/performance.md). Read here, not through
 * settings.ts, so this loader stays free of zod; applies from the next window.
 */
function keepViewWhenHidden(): boolean {
  return vscode.workspace.getConfiguration('acpAgents').get<unknown>('chat.keepViewWhenHidden') !== false;
}

function runMode(mode: vscode.ExtensionMode): ExtensionRunMode {
  switch (mode) {
    case vscode.ExtensionMode.Test:
      return 'test';
    case vscode.ExtensionMode.Development:
      return 'development';
    default:
      return 'production';
  }
}

/** Set by activate: writes every chat journal and stops the agents before the host goes. */
let shutdown: (() => Promise<void>) | undefined;

export async function deactivate(): Promise<void> {
  await shutdown?.();
}
