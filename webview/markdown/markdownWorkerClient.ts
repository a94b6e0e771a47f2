import type { MarkdownOp, PlannerState } from './markdownPlanner';
import { MARKDOWN_EVENTS, type WorkerAnswer, type WorkerRequest } from './workerProtocol';

/** How long the worker may take to load and say it runs before the page plans markdown itself. */
const READY_TIMEOUT_MS = 10_000;

/** A stream on the page whose markdown the worker plans. */
export interface RemoteReceiver {
  apply(ops: readonly MarkdownOp[]): void;
  /** The worker cannot plan this stream any more (it threw, or the worker stopped): plan it on the page. */
  lost(): void;
  /** The stream's last answer is applied (it was finished): the worker holds it no longer. */
  finished(): void;
}

/** A stream's requests to the worker; each is answered, in order, through its receiver. */
export interface RemoteStream {
  append(delta: string): void;
  setText(text: string): void;
  /** The stream ended (its turn did): shown from now on as a render once of its text shows it. */
  end(): void;
  /** The stream is done for good: ended as `end` does when `end` says it is due, then let go by the worker. */
  finish(end: boolean): void;
}

let running: MarkdownWorkerClient | undefined;

/** The markdown worker, once it runs; undefined before, or if it cannot run here. */
export function markdownWorker(): MarkdownWorkerClient | undefined {
  return running;
}

/**
 * Starts the markdown worker from the script at `url` (dist/markdownWorker.js as a webview resource).
 * A webview's resources are served from another origin than its page, and a worker's script must be
 * the page's own: the script is fetched (`connect-src`) and started from a blob: URL (`worker-src
 * blob:`), which is the page's. Anything failing leaves the page planning markdown itself, as before.
 */
export async function startMarkdownWorker(url: string): Promise<void> {
  try {
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(`fetching it answered ${response.status}`);
    }
    const blob = new Blob([await response.text()], { type: 'text/javascript' });
    const blobUrl = URL.createObjectURL(blob);
    try {
      const worker = new Worker(blobUrl, { name: 'markdown' });
      await whenReady(worker);
      running = new MarkdownWorkerClient(worker);
    } finally {
      URL.revokeObjectURL(blobUrl);
    }
    announce({ state: 'ready' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(
      `Markdown is rendered on the page's main thread: the markdown worker did not start (${reason}).`,
    );
    announce({ state: 'unavailable', reason });
  }
}

function whenReady(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('it did not answer')), READY_TIMEOUT_MS);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      worker.terminate();
      reject(error);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new Error(event.message || 'it could not load (the page’s CSP may not allow it)'));
    };
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      if (event.data.type === 'ready') {
        clearTimeout(timer);
        resolve();
      }
    };
  });
}

function announce(detail: { state: 'ready' | 'unavailable'; reason?: string }): void {
  // Also on the page, for anyone looking (the developer tools, the end-to-end tests in VS Code).
  document.documentElement.dataset.markdownWorker = detail.state;
  window.dispatchEvent(new CustomEvent(MARKDOWN_EVENTS.worker, { detail }));
}

/**
 * The page's side of the markdown worker: numbers the streams, routes each answer to its stream,
 * and says when every answer is applied. Streams are held weakly: one whose view is gone is
 * dropped from the worker too.
 */
export class MarkdownWorkerClient {
  private nextId = 1;
  private readonly streams = new Map<number, WeakRef<RemoteReceiver>>();
  private readonly finalized = new FinalizationRegistry<number>((id) => this.drop(id));
  /** Requests not answered yet, all streams together. */
  private waiting = 0;
  /** The page's time applying answers since every answer was last applied. */
  private applyMs = 0;
  /** The page's time applying answers the next frame shows; undefined while no frame is being measured. */
  private shownMs: number | undefined;
  /** A message to the page itself: read once the frame being measured has been painted. */
  private readonly afterFrame = new MessageChannel();

  constructor(private readonly worker: Worker) {
    this.afterFrame.port1.onmessage = (event: MessageEvent<number>) => this.reportShown(event.data);
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.stop();
    };
  }

  /** Moves a stream planned on the page so far (its planner's state) to the worker. */
  adopt(receiver: RemoteReceiver, state: PlannerState): RemoteStream {
    const id = this.nextId++;
    this.streams.set(id, new WeakRef(receiver));
    this.finalized.register(receiver, id, receiver);
    this.worker.postMessage({ type: 'adopt', id, state } satisfies WorkerRequest);
    return {
      append: (delta) => this.request({ type: 'append', id, delta }),
      setText: (text) => this.request({ type: 'set', id, text }),
      end: () => this.request({ type: 'end', id }),
      finish: (end) => this.request({ type: 'finish', id, end }),
    };
  }

  private request(request: Extract<WorkerRequest, { type: 'append' | 'set' | 'end' | 'finish' }>): void {
    if (this.waiting++ === 0) {
      window.dispatchEvent(new CustomEvent(MARKDOWN_EVENTS.busy));
    }
    this.worker.postMessage(request);
  }

  private receive(answer: WorkerAnswer): void {
    if (answer.type === 'ready') {
      return;
    }
    this.waiting -= answer.requests;
    const receiver = this.streams.get(answer.id)?.deref();
    if (answer.type === 'ops') {
      const started = performance.now();
      receiver?.apply(answer.ops);
      const applied = performance.now() - started;
      this.applyMs += applied;
      this.measureShown(applied);
      if (answer.last) {
        this.forget(answer.id, receiver);
      }
    } else {
      // Later answers for it fail too (the worker forgot it): it is planned on the page from now on.
      this.streams.delete(answer.id);
      receiver?.lost();
    }
    if (this.waiting === 0) {
      this.settle();
    }
  }

  /**
   * Times what showing answers costs the page: their apply, and the frame that draws them — from its animation
   * frame callbacks to its paint. The worker rests after a long one (planPacing.ts): a long block the page lays out
   * and paints again at every answer is then sent fewer of them.
   */
  private measureShown(applyMs: number): void {
    if (document.hidden) {
      // No frame shows it now; what the page does meanwhile is no frame's cost.
      return;
    }
    if (this.shownMs !== undefined) {
      this.shownMs += applyMs;
      return;
    }
    this.shownMs = applyMs;
    requestAnimationFrame(() => this.afterFrame.port2.postMessage(performance.now()));
  }

  private reportShown(frameStarted: number): void {
    const ms = (this.shownMs ?? 0) + performance.now() - frameStarted;
    this.shownMs = undefined;
    this.worker.postMessage({ type: 'shown', ms } satisfies WorkerRequest);
  }

  /** A stream the worker let go after its last answer: nothing to drop there when its view goes. */
  private forget(id: number, receiver: RemoteReceiver | undefined): void {
    this.streams.delete(id);
    if (receiver) {
      this.finalized.unregister(receiver);
      receiver.finished();
    }
  }

  private drop(id: number): void {
    if (this.streams.delete(id)) {
      this.worker.postMessage({ type: 'drop', id } satisfies WorkerRequest);
    }
  }

  /** The worker failed: every stream goes back to the page, which plans markdown itself from now on. */
  private stop(): void {
    running = undefined;
    this.worker.terminate();
    const receivers = [...this.streams.values()];
    this.streams.clear();
    this.waiting = 0;
    for (const receiver of receivers) {
      receiver.deref()?.lost();
    }
    this.settle();
    announce({ state: 'unavailable', reason: 'the worker stopped' });
  }

  private settle(): void {
    const applyMs = this.applyMs;
    this.applyMs = 0;
    window.dispatchEvent(new CustomEvent(MARKDOWN_EVENTS.settled, { detail: { applyMs } }));
  }
}
