import type { Browser } from 'playwright-core';
import type { HostMessage } from '../../../src/protocol';
import { ChatPage, type OpenOptions } from './chatPage';
import { launchChromium } from './chromium';
import { StaticServer } from './server';

/**
 * Mocha hooks for a browser suite: one Chromium and one static server per file, a fresh browser
 * context per page. After each test its pages are closed, and the test fails if any of them saw
 * a page error, a console error or a CSP violation.
 */
export function useChatPages(): {
  open: (options?: OpenOptions) => Promise<ChatPage>;
  /** Opens a page and posts `message` to it first, as the host does when a view becomes ready. */
  openShowing: (message: HostMessage, options?: OpenOptions) => Promise<ChatPage>;
} {
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  let pages: ChatPage[] = [];

  before(async function () {
    this.timeout(30_000);
    [browser, server] = await Promise.all([launchChromium(), StaticServer.start()]);
  });

  afterEach(async function () {
    const opened = pages;
    pages = [];
    const problems = opened.flatMap((page) => page.problems);
    await Promise.all(opened.map((page) => page.close()));
    if (problems.length > 0 && this.currentTest?.state === 'passed') {
      throw new Error(`The page reported problems:\n${problems.join('\n')}`);
    }
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (options?: OpenOptions): Promise<ChatPage> => {
    if (!browser || !server) {
      throw new Error('The browser suite did not start');
    }
    const page = await ChatPage.open(browser, server, options);
    pages.push(page);
    return page;
  };
  return {
    open,
    openShowing: async (message, options) => {
      const page = await open(options);
      await page.host(message);
      return page;
    },
  };
}
