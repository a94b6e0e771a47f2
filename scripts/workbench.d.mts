// Types for workbench.mjs, for the TypeScript tests that import it.
import type { Browser, Frame, Page } from 'playwright-core';

export const VIEWPORT: { readonly width: number; readonly height: number };
/** `<repo>/test-results`, where screenshots go. */
export const resultsDir: string;

export interface WorkbenchLog {
  /** VS Code's level: trace, debug, info, warn, error. */
  readonly type: string;
  readonly text: string;
}

export interface OpenWorkbenchOptions {
  server: { readonly url: string; readonly port: number };
  /** Absolute workspace folder to open. */
  folder: string;
  /** Smoke-test-driver payload pairs (see developmentPayload()). */
  payload?: [string, string][];
  /** Called for each info/warn/error line that is not workbench noise (default: print it). */
  onLog?: (log: WorkbenchLog) => void;
  /** Pass the noise to onLog too (debugging). */
  showAll?: boolean;
  /** The browser's user agent: the web workbench takes its OS (and so Mac or Windows keybindings) from it. */
  userAgent?: string;
  /**
   * Serve webviews from a site of their own, so Chromium gives them a renderer of their own, as VS Code
   * desktop and vscode.dev do (code-server serves them from the workbench's origin).
   */
  webviewsOwnSite?: boolean;
}

export interface Workbench {
  /** null with `webviewsOwnSite` (a persistent profile, closed by `close`). */
  readonly browser: Browser | null;
  readonly page: Page;
  /** Lines that passed the noise filter. */
  readonly logs: WorkbenchLog[];
  /** Every line the workbench logged. */
  readonly allLogs: WorkbenchLog[];
  /** Settles when VS Code reports that a tests module's run() finished. */
  readonly exitCode: Promise<number>;
  /** Closes Chromium and its temporary folders. */
  close(): Promise<void>;
}

/** Launches headless Chromium and opens the workbench (automation hooks exposed before navigation). */
export function openWorkbench(options: OpenWorkbenchOptions): Promise<Workbench>;
/** `http://127.0.0.1:<port>/?folder=<abs>&payload=<json>` */
export function workbenchUrl(
  server: { readonly url: string },
  folder: string,
  payload?: [string, string][],
): string;
/** Payload pairs: development extensions, optional tests module and extension host environment. */
export function developmentPayload(
  server: { readonly port: number },
  options: {
    extensionPath: string;
    otherExtensionPaths?: string[];
    testsPath?: string;
    env?: Record<string, string>;
  },
): [string, string][];
/** Clicks the ACP Agents activity-bar item and waits for the chat webview's iframe. */
export function openAcpView(page: Page, options?: { timeout?: number }): Promise<void>;
/** The webview frame for which `predicate` holds (default: its document has `#app`). */
export function webviewFrame(
  page: Page,
  predicate?: (frame: Frame) => Promise<boolean>,
  options?: { timeout?: number },
): Promise<Frame>;
/** Whether the frame's document has `#app`. */
export function hasApp(frame: Frame): Promise<boolean>;
/** Whether the frame's `#app` has rendered elements with visible text. */
export function hasRenderedApp(frame: Frame): Promise<boolean>;
/** Saves a full-window screenshot as test-results/<name>.png and returns its path. */
export function screenshot(page: Page, name: string): Promise<string>;
