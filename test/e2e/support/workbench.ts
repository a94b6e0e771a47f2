/**
 * Starts a real VS Code (code-server) with this repository loaded as a development extension on the sample
 * workspace, and opens it in headless Chromium for a test to drive. Run `npm run build` first (the
 * `test:e2e` script does): the extension is loaded from dist/.
 *
 *   const wb = await startWorkbench();
 *   try { await openAcpView(wb.page); … } finally { await wb.stop(); }
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startCodeServer, type CodeServer } from '../../../scripts/codeServer.mjs';
import { chromiumPath, ensureCodeServer, repoRoot } from '../../../scripts/tools.mjs';
import { developmentPayload, openWorkbench, type WorkbenchLog } from '../../../scripts/workbench.mjs';

export {
  hasApp,
  hasRenderedApp,
  openAcpView,
  screenshot,
  webviewFrame,
} from '../../../scripts/workbench.mjs';

/** The tiny project the workbench opens. */
export const sampleWorkspace = join(repoRoot, 'test', 'fixtures', 'workspace');

export interface StartWorkbenchOptions {
  /** Folder to open; default: the sample workspace. */
  readonly workspace?: string;
  /** VS Code user settings, merged over the quiet defaults. */
  readonly settings?: Record<string, unknown>;
  /** Environment variables for the extension host. */
  readonly env?: Record<string, string>;
  /**
   * More extensions to load beside this one (folders on this machine), installed in the server's
   * extensions folder: the remote extension host loads one development extension only (the last
   * `extensionDevelopmentPath` the workbench passes), so a second one there would replace ours.
   */
  readonly otherExtensions?: readonly string[];
  /** Print workbench log lines as they arrive (default: only keep them in `logs`). */
  readonly printLogs?: boolean;
  /** The browser's user agent: the web workbench takes its OS (Mac or Windows keybindings) from it. */
  readonly userAgent?: string;
  /** Webviews on a site of their own, in a renderer of their own (scripts/workbench.mjs `ownSiteContext`). */
  readonly webviewsOwnSite?: boolean;
}

export interface RunningWorkbench {
  readonly page: Page;
  readonly server: CodeServer;
  /** Extension host console and error lines, for assertions and failure reports. */
  readonly logs: WorkbenchLog[];
  /** Closes Chromium and stops code-server. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startWorkbench(options: StartWorkbenchOptions = {}): Promise<RunningWorkbench> {
  await ensureCodeServer({ quiet: true });
  chromiumPath(); // fails now, with the apt-get line, rather than after the server started
  const workspace = options.workspace ?? sampleWorkspace;
  const extensionsDir = installedExtensions(options.otherExtensions ?? []);
  const server = await startCodeServer({ workspace, settings: options.settings, extensionsDir });
  try {
    const workbench = await openWorkbench({
      server,
      folder: workspace,
      payload: developmentPayload(server, {
        extensionPath: repoRoot,
        env: options.env,
      }),
      onLog: options.printLogs ? (log) => console.log(`[workbench ${log.type}] ${log.text}`) : () => {},
      ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
      webviewsOwnSite: options.webviewsOwnSite === true,
    });
    let stopped = false;
    return {
      page: workbench.page,
      server,
      logs: workbench.logs,
      async stop() {
        if (stopped) {
          return;
        }
        stopped = true;
        await workbench.close();
        await server.stop();
        removeExtensions(extensionsDir);
      },
    };
  } catch (error) {
    await server.stop();
    removeExtensions(extensionsDir);
    throw error;
  }
}

/**
 * A fresh extensions folder holding a copy of each of `folders` under the name VS Code gives an installed
 * extension (publisher.name-version), or undefined for none (the server then makes its own).
 */
function installedExtensions(folders: readonly string[]): string | undefined {
  if (folders.length === 0) {
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'acp-e2e-extensions-'));
  for (const folder of folders) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    cpSync(folder, join(dir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), {
      recursive: true,
    });
  }
  return dir;
}

function removeExtensions(dir: string | undefined): void {
  if (dir) {
    rmSync(dir, { recursive: true, force: true });
  }
}
