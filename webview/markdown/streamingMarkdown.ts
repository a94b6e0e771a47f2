import { MarkdownDom } from './markdownDom';
import { MarkdownPlanner } from './markdownPlanner';
import { markdownWorker, type RemoteReceiver, type RemoteStream } from './markdownWorkerClient';

/**
 * A message body that grows while the agent streams. What to change in its DOM is planned by a
 * MarkdownPlanner (stable blocks rendered once, only the tail again); the DOM only applies it.
 *
 * Shown whole (`setText`: a snapshot, a replaced text), it is planned on the page, at once. Once it
 * streams (`append`) and the markdown worker runs, a message that allows it (`offThread`) moves its
 * planner to the worker: the page's main thread then only sends the new text and applies the
 * operations that come back (after the frame that sent it). If the worker fails, the page plans
 * the whole text again itself.
 */
export class StreamingMarkdown {
  readonly element: HTMLElement;
  private readonly dom: MarkdownDom;
  /** The text shown, or being shown (a rope: V8 joins the pieces only if the whole text is ever read). */
  private text = '';
  /** Planning on the page: until the stream moves to the worker, and again if the worker fails. */
  private planner: MarkdownPlanner | undefined = new MarkdownPlanner();
  private remote: RemoteStream | undefined;
  /** Held only here: the worker's client holds it weakly, so the stream goes when this view does. */
  private readonly receiver: RemoteReceiver = {
    apply: (ops) => this.dom.apply(ops),
    lost: () => this.planAgain(),
  };

  /** Whether this stream may move to the worker: not if asked not to, nor once the worker lost it. */
  private offThread: boolean;

  constructor(className = 'markdown', offThread = false) {
    this.offThread = offThread;
    this.dom = new MarkdownDom(className);
    this.element = this.dom.element;
  }

  /**
   * Shows `text`. It is compared with what is shown (a cost of its length), so a stream uses
   * `append`; this is for a text that was replaced, or shown for the first time.
   */
  setText(text: string): void {
    if (text === this.text) {
      return;
    }
    this.text = text;
    if (this.remote) {
      this.remote.setText(text);
    } else {
      this.dom.apply(this.local().setText(text));
    }
  }

  /** Shows `delta` after the text shown so far: costs the delta and the unstable tail only. */
  append(delta: string): void {
    if (delta === '') {
      return;
    }
    this.text += delta;
    const remote = this.remote ?? this.moveToWorker();
    if (remote) {
      remote.append(delta);
    } else {
      this.dom.apply(this.local().append(delta));
    }
  }

  private local(): MarkdownPlanner {
    this.planner ??= new MarkdownPlanner();
    return this.planner;
  }

  private moveToWorker(): RemoteStream | undefined {
    const worker = this.offThread ? markdownWorker() : undefined;
    if (!worker) {
      return undefined;
    }
    this.remote = worker.adopt(this.receiver, this.local().state());
    this.planner = undefined;
    return this.remote;
  }

  /** The worker lost the stream: everything is planned again on the page, from the whole text. */
  private planAgain(): void {
    // On the page from now on: a text the worker failed on would fail it again, each time planned whole.
    this.offThread = false;
    this.remote = undefined;
    this.planner = new MarkdownPlanner();
    this.dom.apply([{ op: 'reset' }, ...this.planner.setText(this.text)]);
  }
}
