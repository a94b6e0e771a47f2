/**
 * Screenshots from inside the extension host. A test here cannot see the window, so it asks the launcher:
 * it drops a request file into the folder named by ACP_SCREENSHOT_DIR, the launcher (which drives the
 * browser) saves test-results/<name>.png and answers with a done file. Under desktop VS Code
 * (@vscode/test-electron) nobody watches, ACP_SCREENSHOT_DIR is unset and the request resolves without a
 * picture.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ScreenshotOptions {
  /**
   * Take the picture once the chat webview shows content (the launcher waits up to 20 s; webviews load
   * their bundle asynchronously, seconds after the view opens). The result says whether it did.
   */
  readonly waitForChatView?: boolean;
}

export interface Screenshot {
  /** The PNG, test-results/<name>.png. */
  readonly path: string;
  /** With `waitForChatView`: whether the chat view had rendered content when the picture was taken. */
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
 * when no launcher can take one. Rejects if the launcher reports an error or does not answer in time.
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
  const waitMs = options.waitForChatView ? CHAT_VIEW_WAIT_MS : 0;
  // Written under another name and renamed, so the launcher never reads half a request.
  writeFileSync(`${request}.tmp`, JSON.stringify({ name, waitForChatViewMs: waitMs }));
  renameSync(`${request}.tmp`, request);

  const deadline = Date.now() + waitMs + ANSWER_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (existsSync(answer)) {
      const result = JSON.parse(readFileSync(answer, 'utf8')) as Answer;
      rmSync(answer, { force: true });
      if (!result.path) {
        throw new Error(`screenshot "${name}" failed: ${result.error ?? 'no path in the answer'}`);
      }
      return { path: result.path, chatViewRendered: result.chatViewRendered };
    }
    await sleep(100);
  }
  rmSync(request, { force: true });
  throw new Error(`screenshot "${name}" was not taken within ${(waitMs + ANSWER_TIMEOUT_MS) / 1000} s`);
}
