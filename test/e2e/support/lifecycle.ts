import type { Frame, Locator, Page } from 'playwright-core';
import {
  agentText,
  newChat,
  openChat,
  openFile,
  reportFailure,
  sendPrompt,
  setLayout,
  turn,
  waitForAgentText,
  waitForTurnStatus,
  type LayoutOptions,
} from './chat';
import { startWorkbench, type RunningWorkbench, type StartWorkbenchOptions } from './workbench';

export interface WorkbenchLifecycleOptions extends StartWorkbenchOptions {
  /** Open the chat view once started (default true). */
  readonly openChat?: boolean;
  /** Start each test in a new chat, so it passes alone and in any order (default false). */
  readonly newChatEachTest?: boolean;
  /** Resize the window and the sidebar before the chat opens (for screenshots a person can read). */
  readonly layout?: LayoutOptions;
  /** Files of the workspace to open in editors once the chat is open (something beside it on screen). */
  readonly openFiles?: readonly string[];
}

/** The suite's workbench, page and chat frame, live once the suite's `before` has run. */
export interface WorkbenchLifecycle {
  readonly workbench: RunningWorkbench;
  readonly page: Page;
  /** The chat view's frame; a test that reloads the window or reopens the view sets it again. */
  frame: Frame;
  /** The turn helpers of ./chat on the chat view's frame. */
  sendPrompt(text: string): Promise<string>;
  turn(turnId: string): Locator;
  waitForTurnStatus(turnId: string, status: string, options?: { timeout?: number }): Promise<void>;
  waitForAgentText(turnId: string, expected: string, options?: { timeout?: number }): Promise<void>;
  agentText(turnId: string): Promise<string>;
}

/**
 * One workbench per suite, with the hooks every e2e suite needs: start it (and open the chat), a new
 * chat before each test when asked, on a failure its logs and a screenshot, and stop it at the end.
 * Call it at the top of a `describe`; the window is shared because it is slow to start.
 */
export function useWorkbench(
  setup:
    WorkbenchLifecycleOptions | (() => WorkbenchLifecycleOptions | Promise<WorkbenchLifecycleOptions>) = {},
): WorkbenchLifecycle {
  // A function is called in the suite's `before`, so what it prepares (a temp folder, a PATH) is made
  // only when the suite runs.
  let options: WorkbenchLifecycleOptions = typeof setup === 'function' ? {} : setup;
  let running: RunningWorkbench | undefined;
  let chatFrame: Frame | undefined;
  const lifecycle: WorkbenchLifecycle = {
    get workbench() {
      if (running === undefined) {
        throw new Error('the workbench is not started (useWorkbench runs in the suite’s before hook)');
      }
      return running;
    },
    get page() {
      return lifecycle.workbench.page;
    },
    get frame() {
      if (chatFrame === undefined) {
        throw new Error('the chat view is not open');
      }
      return chatFrame;
    },
    set frame(frame: Frame) {
      chatFrame = frame;
    },
    sendPrompt: (text) => sendPrompt(lifecycle.frame, text),
    turn: (turnId) => turn(lifecycle.frame, turnId),
    waitForTurnStatus: (turnId, status, waitOptions) =>
      waitForTurnStatus(lifecycle.frame, turnId, status, waitOptions),
    waitForAgentText: (turnId, expected, waitOptions) =>
      waitForAgentText(lifecycle.frame, turnId, expected, waitOptions),
    agentText: (turnId) => agentText(lifecycle.frame, turnId),
  };

  before(async function () {
    if (typeof setup === 'function') {
      options = await setup();
    }
    running = await startWorkbench(options);
    if (options.layout !== undefined) {
      await setLayout(running.page, options.layout);
    }
    if (options.openChat !== false) {
      try {
        // The first opening activates the extension and loads the chat's bundle in a cold window: on a
        // busy machine (CI, other suites beside it) that alone took over 30 s (run 2 of 10 failed there).
        chatFrame = await openChat(running.page, { timeout: 60_000 });
      } catch (error) {
        // The chat never showed: what the workbench logged is the clue (afterEach does not run for this).
        await reportFailure(
          {
            currentTest: { state: 'failed', title: `${this.test?.parent?.title ?? 'suite'} start` },
          } as Mocha.Context,
          () => running,
        );
        throw error;
      }
    }
    for (const file of options.openFiles ?? []) {
      await openFile(running.page, file);
    }
  });

  beforeEach(async () => {
    if (options.newChatEachTest === true) {
      await newChat(lifecycle.page, lifecycle.frame);
    }
  });

  afterEach(async function () {
    await reportFailure(this, () => running);
  });

  after(async () => {
    await running?.stop();
  });

  return lifecycle;
}

/** VS Code's two default themes, as a suite that looks at both names them (file suffix, `workbench.colorTheme`). */
export const THEMES = [
  ['light', 'Default Light Modern'],
  ['dark', 'Default Dark Modern'],
] as const;
