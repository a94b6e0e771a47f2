/**
 * Screenshots from inside the extension host. A test here cannot see the window, so it asks the launcher:
 * it drops a request file into the folder named by ACP_SCREENSHOT_DIR, the launcher (which drives the
 * browser) saves test-results/<name>.png and answers with a done file. Under desktop VS Code
 * (@vscode/test-electron) nobody watches, ACP_SCREENSHOT_DIR is unset and the request resolves without a
 * picture.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ScreenshotOptions {
  /**
   * Take the picture once the chat webview shows content (the launcher waits up to 20 s; webviews load
   * their bundle asynchronously, seconds after the view opens). The result says whether it did.
   */
  readonly waitForChatView?: boolean;
  /**
   * Take the picture once the chat webview shows this text (implies `waitForChatView`): the webview
   * renders asynchronously, after the extension host has the state the test checked.
   */
  readonly waitForText?: string;
}

export interface Screenshot {
  /** The PNG, test-results/<name>.png. */
  readonly path: string;
  /** With `waitForChatView` / `waitForText`: whether the chat view showed it when the picture was taken. */
  readonly chatViewRendered?: boolean;
}

/** The launcher's answer file: a screenshot, or why there is none. */
interface Answer extends Partial<Screenshot> {
  readonly error?: string;
}

/** Time the launcher gets to take the picture, on top of any wait for the chat view. */
const ANSWER_TIMEOUT_MS = 15_000;
const CHAT_VIEW_WAIT_MS = 20_000;
let sequence = 0;

/**
 * Asks for a full-window screenshot named `name`; resolves once the PNG is written, or with `undefined`
 * (and a log line) when no launcher can take one. Rejects if the launcher reports an error, does not
 * answer in time, writes no picture, or (with `waitForChatView` / `waitForText`) took it before the chat
 * view showed what was asked: a picture that was asked for is always checked, never skipped silently.
 */
export async function requestScreenshot(
  name: string,
  options: ScreenshotOptions = {},
): Promise<Screenshot | undefined> {
  const dir = process.env.ACP_SCREENSHOT_DIR;
  if (!dir) {
    console.log(`[screenshot] "${name}" skipped: no browser drives this VS Code (ACP_SCREENSHOT_DIR unset)`);
    return undefined;
  }
  const id = `${process.pid}-${Date.now()}-${++sequence}`;
  const request = join(dir, `${id}.request.json`);
  const answer = join(dir, `${id}.done.json`);
  const waitMs = options.waitForChatView || options.waitForText !== undefined ? CHAT_VIEW_WAIT_MS : 0;
  // Written under another name and renamed, so the launcher never reads half a request.
  writeFileSync(
    `${request}.tmp`,
    JSON.stringify({ name, waitForChatViewMs: waitMs, waitForText: options.waitForText }),
  );
  renameSync(`${request}.tmp`, request);

  const deadline = Date.now() + waitMs + ANSWER_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (existsSync(answer)) {
      const result = JSON.parse(readFileSync(answer, 'utf8')) as Answer;
      rmSync(answer, { force: true });
      if (!result.path) {
        throw new Error(`screenshot "${name}" failed: ${result.error ?? 'no path in the answer'}`);
      }
      if (!existsSync(result.path) || statSync(result.path).size <= 1_000) {
        throw new Error(`screenshot "${name}": ${result.path} is missing or empty`);
      }
      if (waitMs > 0 && result.chatViewRendered !== true) {
        const what = options.waitForText === undefined ? 'content' : JSON.stringify(options.waitForText);
        throw new Error(`screenshot "${name}": the chat webview did not show ${what} in ${waitMs / 1000} s`);
      }
      return { path: result.path, chatViewRendered: result.chatViewRendered };
    }
    await sleep(100);
  }
  rmSync(request, { force: true });
  throw new Error(`screenshot "${name}" was not taken within ${(waitMs + ANSWER_TIMEOUT_MS) / 1000} s`);
}
