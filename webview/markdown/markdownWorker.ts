// The markdown worker (dist/markdownWorker.js, started by markdownWorkerClient.ts): plans streaming
// messages off the page's main thread — the block splitter and markdown-it — and answers each
// request with the DOM operations, which the page only applies.
import { MarkdownPlanner } from './markdownPlanner';
import { PlanPacer } from './planPacing';
import type { WorkerAnswer, WorkerRequest } from './workerProtocol';

/** The worker's global scope, as much of it as is used (the project's types are the page's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(answer: WorkerAnswer): void;
};

const planners = new Map<number, MarkdownPlanner>();

/**
 * Appends not planned yet, by stream. An append waits until the requests already sent have been read, so
 * that a worker behind the page (a long tail parsed again for every append) plans all that waited at once:
 * the work stays a parse per moment the worker is free, not one per frame of the page — and after a long plan,
 * until the worker has rested (planPacing.ts).
 */
const waiting = new Map<number, { delta: string; requests: number }>();
/** A message to the worker itself, read after the requests sent before it; the pacer queues one at a time. */
const wake = new MessageChannel();
let onWake = (): void => {};
wake.port1.onmessage = () => onWake();
const pacer = new PlanPacer(
  {
    now: () => performance.now(),
    soon: (then) => {
      onWake = then;
      wake.port2.postMessage(null);
    },
    after: (ms, then) => setTimeout(then, ms),
  },
  () => {
    for (const id of [...waiting.keys()]) {
      planWaiting(id);
    }
  },
);

scope.onmessage = (event) => {
  const request = event.data;
  switch (request.type) {
    case 'adopt':
      planners.set(request.id, new MarkdownPlanner(request.state));
      return;
    case 'drop': {
      // Its appends still waiting are answered (the page counts every request): the stream is not planned here.
      const queued = waiting.get(request.id);
      waiting.delete(request.id);
      planners.delete(request.id);
      if (queued) {
        const message = `markdown stream ${request.id} dropped`;
        scope.postMessage({ type: 'failed', id: request.id, requests: queued.requests, message });
      }
      return;
    }
    case 'append':
      wait(request.id, request.delta);
      return;
    case 'shown':
      pacer.shown(request.ms);
      return;
    case 'set':
      // In order: what this stream's earlier appends change comes first.
      planWaiting(request.id);
      answer(request.id, 1, (planner) => planner.setText(request.text));
      return;
    case 'end':
      planWaiting(request.id);
      answer(request.id, 1, (planner) => planner.end());
      return;
    case 'finish':
      planWaiting(request.id);
      answer(request.id, 1, (planner) => (request.end ? planner.end() : []), true);
      planners.delete(request.id);
      return;
    default: {
      const never: never = request;
      throw new Error(`Unknown markdown worker request ${JSON.stringify(never)}`);
    }
  }
};

function wait(id: number, delta: string): void {
  const queued = waiting.get(id);
  if (queued) {
    queued.delta += delta;
    queued.requests++;
  } else {
    waiting.set(id, { delta, requests: 1 });
  }
  pacer.appendsWait();
}

function planWaiting(id: number): void {
  const queued = waiting.get(id);
  if (queued) {
    waiting.delete(id);
    answer(id, queued.requests, (planner) => planner.append(queued.delta));
  }
}

function answer(
  id: number,
  requests: number,
  plan: (planner: MarkdownPlanner) => WorkerOps,
  last = false,
): void {
  try {
    const planner = planners.get(id);
    if (!planner) {
      // Never adopted, or dropped after a failure: the page plans it again itself.
      throw new Error(`no markdown stream ${id}`);
    }
    const ops = pacer.timed(() => plan(planner));
    scope.postMessage({ type: 'ops', id, requests, ops, ...(last ? { last } : {}) });
  } catch (error) {
    planners.delete(id);
    scope.postMessage({ type: 'failed', id, requests, message: String(error) });
  }
}

type WorkerOps = Extract<WorkerAnswer, { type: 'ops' }>['ops'];

scope.postMessage({ type: 'ready' });
