import * as vscode from 'vscode';
import type { ChatHost, createChatHost } from './chatHost';
import { requireBundle } from './vscode/lazyBundles';

/** What `dist/chat.js` exports (built from src/chatHost.ts by esbuild.mjs). */
interface ChatHostModule {
  readonly createChatHost: typeof createChatHost;
}

/**
 * The chat, loaded on first use. At activation it registers stand-ins for every command the extension
 * contributes; the first use of any of them — or of the view, the editor-tab serializer or the test
 * hooks — requires `dist/chat.js`, builds the chat (whose own registrations replace the stand-ins) and
 * passes the call on. Until then nothing of the ACP SDK, the schemas, the controller or the journal has
 * been loaded: activating costs a few registrations.
 */
export class LazyChatHost implements vscode.Disposable {
  private host: ChatHost | undefined;
  private standIns: vscode.Disposable[] = [];
  private readonly bundlePath: string;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly commandIds: readonly string[],
  ) {
    this.bundlePath = vscode.Uri.joinPath(context.extensionUri, 'dist', 'chat.js').fsPath;
    this.registerStandIns();
  }

  /** Whether the chat has been built (tests and the activation benchmark check that it has not). */
  get isLoaded(): boolean {
    return this.host !== undefined;
  }

  /** The chat, built on the first call. Synchronous, so no second call can start a second build. */
  get(): ChatHost {
    if (this.host) {
      return this.host;
    }
    // The chat registers the real commands under the same ids: the stand-ins must go first.
    this.disposeStandIns();
    try {
      const bundle = requireBundle<ChatHostModule>(this.bundlePath);
      this.host = bundle.createChatHost(this.context, this.log);
      return this.host;
    } catch (error) {
      this.log.error(
        `The chat could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      );
      // Commands keep working as stand-ins, so the next use tries again (and reports again).
      this.registerStandIns();
      throw error;
    }
  }

  /** The sidebar view's provider: registered at activation, building the chat when the view first resolves. */
  viewProvider(): vscode.WebviewViewProvider {
    return {
      resolveWebviewView: (view, resolveContext, token) =>
        this.get().view.resolveWebviewView(view, resolveContext, token),
    };
  }

  /** The editor-tab chat's serializer: a tab restored after a reload builds the chat. */
  panelSerializer(): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: (panel, state) => this.get().panels.deserializeWebviewPanel(panel, state),
    };
  }

  /** Writes every journal and stops the agents, when the chat was ever built. */
  async shutdown(): Promise<void> {
    await this.host?.shutdown();
  }

  dispose(): void {
    this.disposeStandIns();
    this.host?.dispose();
    this.host = undefined;
  }

  private registerStandIns(): void {
    for (const id of this.commandIds) {
      try {
        this.standIns.push(
          vscode.commands.registerCommand(id, (...args: unknown[]) => {
            this.get();
            return vscode.commands.executeCommand(id, ...args);
          }),
        );
      } catch {
        // Registered by a chat that failed half-way through being built: that registration answers.
      }
    }
  }

  private disposeStandIns(): void {
    for (const standIn of this.standIns.splice(0)) {
      standIn.dispose();
    }
  }
}
