import { MarkdownDom } from './markdownDom';
import { MarkdownPlanner } from './markdownPlanner';
import { markdownWorker, type RemoteReceiver, type RemoteStream } from './markdownWorkerClient';

/**
 * The longest text a view shows whole without keeping its planner: making it again costs a plan of the whole text,
 * paid on the page's main thread if the text changes — under a millisecond at this length (0.3–0.6 ms in Node), a
 * tenth of a second for the 1.25 MB the host sends at most; a longer text keeps its planner.
 */
const DERIVE_MAX_CHARS = 8192;

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
  /**
   * Planning on the page: until the stream moves to the worker, and again if the worker fails. Let go while the
   * text shown is what a new planner shows for it at once (`derivable`): made again from the text when it changes.
   */
  private planner: MarkdownPlanner | undefined;
  /**
   * The DOM shows exactly a new planner's `setText(this.text)`: a planner made so again plans on from the same
   * state, so none is kept meanwhile (most messages are shown whole once and never change: a user's message, each
   * of a reopened chat's). Only for a text of at most DERIVE_MAX_CHARS.
   */
  private derivable = true;
  private remote: RemoteStream | undefined;
  /** Held only here, while the stream is in the worker: its client holds it weakly, so it goes with this view. */
  private receiver: RemoteReceiver | undefined;

  /** Text was appended since the stream last ended (or was shown whole, which needs no end). */
  private appendedSinceEnd = false;

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
    this.appendedSinceEnd = false;
    if (this.remote) {
      this.text = text;
      this.remote.setText(text);
    } else if (this.derivable && this.text === '' && text.length <= DERIVE_MAX_CHARS) {
      // Shown whole for the first time: what a new planner shows, so none needs to stay.
      this.text = text;
      this.dom.apply(new MarkdownPlanner().setText(text));
    } else {
      const planner = this.local();
      this.text = text;
      this.derivable = false;
      this.dom.apply(planner.setText(text));
    }
  }

  /** Shows `delta` after the text shown so far: costs the delta and the unstable tail only. */
  append(delta: string): void {
    if (delta === '') {
      return;
    }
    this.appendedSinceEnd = true;
    const remote = this.remote ?? this.moveToWorker();
    if (remote) {
      this.text += delta;
      remote.append(delta);
    } else {
      const planner = this.local();
      this.text += delta;
      this.derivable = false;
      this.dom.apply(planner.append(delta));
    }
  }

  /**
   * The stream is done (its turn ended): shown from now on as a render once of its text shows it — what a stream
   * holds back while it goes on (links whose definition was being written, in more blocks than a frame re-renders).
   */
  end(): void {
    if (!this.appendedSinceEnd) {
      return;
    }
    this.appendedSinceEnd = false;
    if (this.remote) {
      this.remote.end();
    } else if (this.planner) {
      this.dom.apply(this.planner.end());
    }
  }

  /**
   * The message is done for good (its turn ended): ended as `end` does, and a stream in the worker is let go there
   * — the worker kept its whole text and planner for appends that will not come, until the view was collected.
   * A change after it (rare: the message replaced) shows the whole text afresh.
   */
  finish(): void {
    const remote = this.remote;
    if (!remote) {
      this.end();
      return;
    }
    remote.finish(this.appendedSinceEnd);
    this.appendedSinceEnd = false;
    // No planner is kept for what the DOM shows now, anywhere: `local` shows the text afresh if it changes.
    this.remote = undefined;
  }

  /**
   * The page's planner for the text shown: made again from it when it was let go (`derivable`), or shown afresh
   * from the whole text when the DOM was left by a stream no planner is kept for (finished in the worker).
   */
  private local(): MarkdownPlanner {
    if (this.planner) {
      return this.planner;
    }
    if (!this.derivable) {
      return this.planFresh();
    }
    this.planner = new MarkdownPlanner();
    // The DOM shows this text as a new planner shows it: its operations are already applied.
    this.planner.setText(this.text);
    return this.planner;
  }

  private moveToWorker(): RemoteStream | undefined {
    const worker = this.offThread ? markdownWorker() : undefined;
    if (!worker) {
      return undefined;
    }
    const state = this.local().state();
    // Answers for a receiver this view no longer holds (a stream finished, then shown afresh) are not applied.
    const receiver: RemoteReceiver = {
      apply: (ops) => {
        if (this.receiver === receiver) {
          this.dom.apply(ops);
        }
      },
      lost: () => {
        if (this.receiver === receiver) {
          this.planAgain();
        }
      },
      finished: () => {
        if (this.receiver === receiver) {
          this.receiver = undefined;
        }
      },
    };
    this.receiver = receiver;
    this.remote = worker.adopt(receiver, state);
    this.planner = undefined;
    this.derivable = false;
    return this.remote;
  }

  /** The worker lost the stream: everything is planned again on the page, from the whole text. */
  private planAgain(): void {
    // On the page from now on: a text the worker failed on would fail it again, each time planned whole.
    this.offThread = false;
    this.remote = undefined;
    this.planFresh();
  }

  /** The whole text shown afresh, planned on the page: what the DOM showed had no planner to go on from. */
  private planFresh(): MarkdownPlanner {
    // Its answers still on their way (a finish's last) would change the DOM this replaces.
    this.receiver = undefined;
    this.derivable = false;
    const planner = (this.planner = new MarkdownPlanner());
    this.dom.apply([{ op: 'reset' }, ...planner.setText(this.text)]);
    return planner;
  }
}
