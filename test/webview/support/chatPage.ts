import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { HostMessage, ViewMessage } from '../../../src/protocol';
import type { StaticServer, Theme } from './server';

/** Where the pictures of the pages go (test-results/, beside the other suites' pictures). */
export const RESULTS_DIR = resolve(__dirname, '../../../test-results');

export interface OpenOptions {
  readonly theme?: Theme;
  readonly width?: number;
  readonly height?: number;
  /** Streamed markdown planned in the worker, as in VS Code (default); false: on the page's main thread. */
  readonly markdownWorker?: boolean;
  /** Runs before the page loads (routes, init scripts); `open` then does not wait for the markdown worker. */
  readonly beforeLoad?: (page: Page) => Promise<void>;
}

/**
 * The chat page in Chromium, driven like the host drives it: `host()` posts a HostMessage and
 * resolves once the view has rendered it; `posted()` returns what the view sent. Page errors,
 * console errors and CSP violations are collected; `assertClean()` fails the test on any.
 */
export class ChatPage {
  readonly problems: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') {
        this.problems.push(`console error: ${message.text()}`);
      }
    });
  }

  static async open(browser: Browser, server: StaticServer, options: OpenOptions = {}): Promise<ChatPage> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 420, height: options.height ?? 900 },
      colorScheme: options.theme ?? 'dark',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    const chat = new ChatPage(context, page);
    const markdownWorker = options.markdownWorker ?? true;
    await options.beforeLoad?.(page);
    await page.goto(server.chatUrl(options.theme ?? 'dark', { markdownWorker }));
    await chat.waitForReady();
    if (markdownWorker && !options.beforeLoad) {
      // Streams move to the worker once it runs: before, the page plans them (tested on its own).
      await page.waitForFunction(() => window.__markdown.worker !== 'starting');
      assert.equal(await page.evaluate(() => window.__markdown.worker), 'ready', 'the markdown worker runs');
    }
    return chat;
  }

  /** Types `text` into the message box and presses Enter, as the user sends; resolves with the box. */
  async send(text: string): Promise<Locator> {
    const input = this.page.locator('.composer-input');
    await input.fill(text);
    await input.press('Enter');
    return input;
  }

  /** A picture of the page once its fonts have loaded, saved as RESULTS_DIR/`name`.png; resolves with its path. */
  async screenshot(name: string): Promise<string> {
    await this.page.evaluate(() => document.fonts.ready);
    await mkdir(RESULTS_DIR, { recursive: true });
    const path = resolve(RESULTS_DIR, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /** Waits until the view has posted `ready` (after a load or reload). */
  async waitForReady(): Promise<void> {
    await this.page.waitForFunction(() =>
      window.__posted.some((message) => (message as { type?: string }).type === 'ready'),
    );
  }

  /** Posts a message as the host would and waits for the frame that renders it. */
  async host(message: HostMessage): Promise<void> {
    await this.hostRaw(message);
  }

  /**
   * Posts anything (also invalid messages) and waits for the next rendered frame, and for the markdown
   * the worker planned meanwhile to be applied.
   */
  async hostRaw(message: unknown): Promise<void> {
    await this.page.evaluate(
      (data) =>
        new Promise<void>((resolve) => {
          // Registered after the view's own listener, so the view has handled the message and
          // requested its frame before this requests the frame that resolves.
          window.addEventListener(
            'message',
            () =>
              requestAnimationFrame(() => {
                if (window.__markdown.busy) {
                  window.addEventListener('acp-markdown-settled', () => resolve(), { once: true });
                } else {
                  resolve();
                }
              }),
            { once: true },
          );
          window.postMessage(data, '*');
        }),
      message,
    );
  }

  async posted(): Promise<ViewMessage[]> {
    return (await this.page.evaluate(() => window.__posted)) as ViewMessage[];
  }

  /** Posted messages of one type. */
  async postedOf<T extends ViewMessage['type']>(type: T): Promise<Extract<ViewMessage, { type: T }>[]> {
    const all = await this.posted();
    return all.filter((message): message is Extract<ViewMessage, { type: T }> => message.type === type);
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      window.__posted.length = 0;
    });
  }

  /** Waits one rendered frame (after UI interactions that schedule work), and the markdown worker's answers. */
  async frame(): Promise<void> {
    await this.page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => {
            if (window.__markdown.busy) {
              window.addEventListener('acp-markdown-settled', () => resolve(), { once: true });
            } else {
              resolve();
            }
          }),
        ),
    );
  }

  assertClean(): void {
    assert.deepEqual(this.problems, [], 'no page errors, console errors or CSP violations');
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
