import type { MarkdownOp, PlannerState } from './markdownPlanner';

/**
 * Messages between the page and the markdown worker (webview/markdown/markdownWorker.ts). Both ends
 * are the chat's own code from its own bundles, so they are typed, not parsed.
 */
export type WorkerRequest =
  /** Stream `id` goes on from this state (planned on the page so far); no answer. */
  | { readonly type: 'adopt'; readonly id: number; readonly state: PlannerState }
  /** Text appended to stream `id`: answered with its operations. */
  | { readonly type: 'append'; readonly id: number; readonly delta: string }
  /** Stream `id`'s whole text (extended or replaced): answered with its operations. */
  | { readonly type: 'set'; readonly id: number; readonly text: string }
  /** Stream `id` is done (its turn ended): answered with what showing it as a render once still changes. */
  | { readonly type: 'end'; readonly id: number }
  /**
   * Stream `id` is done for good: ended as `end` does when `end` says it is due, then forgotten (its text and
   * planner with it). Answered with those operations, marked `last`.
   */
  | { readonly type: 'finish'; readonly id: number; readonly end: boolean }
  /** Stream `id` is gone from the page; no answer. */
  | { readonly type: 'drop'; readonly id: number }
  /** The page's time applying answers and showing them in a frame (ms): the worker paces itself by it; no answer. */
  | { readonly type: 'shown'; readonly ms: number };

export type WorkerAnswer =
  /** Sent once, when the worker has loaded: it runs (the page's CSP let it start). */
  | { readonly type: 'ready' }
  /**
   * The answer to stream `id`'s last `requests` requests: appends that waited in the worker's queue are
   * planned together (the tail parsed once for all of them).
   */
  | {
      readonly type: 'ops';
      readonly id: number;
      readonly requests: number;
      readonly ops: readonly MarkdownOp[];
      /** The stream's last answer (it was finished): the worker holds it no longer. */
      readonly last?: true;
    }
  /** Planning stream `id` threw (answering its last `requests` requests): the page plans it again itself. */
  | { readonly type: 'failed'; readonly id: number; readonly requests: number; readonly message: string };

/** Events on `window` that say what the markdown worker does (tests and the bench wait on them). */
export const MARKDOWN_EVENTS = {
  /** The worker is ready, or will not be used (`detail.state`: 'ready' | 'unavailable'; `detail.reason`). */
  worker: 'acp-markdown-worker',
  /** The first request waiting for an answer (none were waiting). */
  busy: 'acp-markdown-busy',
  /** Every answer applied; `detail.applyMs`: the page's time applying them since it was last settled. */
  settled: 'acp-markdown-settled',
} as const;
