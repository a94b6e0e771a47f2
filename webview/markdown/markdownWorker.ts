// The markdown worker (dist/markdownWorker.js, started by markdownWorkerClient.ts): plans streaming
// messages off the page's main thread — the block splitter and markdown-it — and answers each
// request with the DOM operations, which the page only applies.
import { MarkdownPlanner } from './markdownPlanner';
import type { WorkerAnswer, WorkerRequest } from './workerProtocol';

/** The worker's global scope, as much of it as is used (the project's types are the page's). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(answer: WorkerAnswer): void;
};

const planners = new Map<number, MarkdownPlanner>();

scope.onmessage = (event) => {
  const request = event.data;
  switch (request.type) {
    case 'adopt':
      planners.set(request.id, new MarkdownPlanner(request.state));
      return;
    case 'drop':
      planners.delete(request.id);
      return;
    case 'append':
    case 'set':
      answer(request);
      return;
    default: {
      const never: never = request;
      throw new Error(`Unknown markdown worker request ${JSON.stringify(never)}`);
    }
  }
};

function answer(request: Extract<WorkerRequest, { type: 'append' | 'set' }>): void {
  const { id } = request;
  try {
    const planner = planners.get(id);
    if (!planner) {
      // Never adopted, or dropped after a failure: the page plans it again itself.
      throw new Error(`no markdown stream ${id}`);
    }
    const ops = request.type === 'append' ? planner.append(request.delta) : planner.setText(request.text);
    scope.postMessage({ type: 'ops', id, ops });
  } catch (error) {
    planners.delete(id);
    scope.postMessage({ type: 'failed', id, message: String(error) });
  }
}

scope.postMessage({ type: 'ready' });
