import type { Disposable } from '../core/disposable';
import type { HostMessage } from '../protocol';
import type { ViewSink } from './viewSink';

/**
 * The connected webviews (the sidebar, editor tabs), each with whether it said `ready`. They all mirror
 * the active chat: a message goes to every ready view, and nothing goes to a view before its `ready`.
 */
export class ViewConnections {
  private readonly sinks = new Map<ViewSink, { ready: boolean }>();

  /** A view (re)connected; `onNoneLeft` runs when the last one goes. */
  attach(sink: ViewSink, onNoneLeft: () => void): Disposable {
    this.sinks.set(sink, { ready: false });
    return {
      dispose: () => {
        if (this.sinks.delete(sink) && this.sinks.size === 0) {
          onNoneLeft();
        }
      },
    };
  }

  /** Notes a `ready` from `from` (without `from`: from every attached view) before it is dispatched. */
  noteReady(raw: unknown, from?: ViewSink): void {
    if (typeof raw !== 'object' || raw === null || (raw as { type?: unknown }).type !== 'ready') {
      return;
    }
    for (const [sink, connection] of this.sinks) {
      if (from === undefined || sink === from) {
        connection.ready = true;
      }
    }
  }

  /** How many attached views said `ready`. */
  get readyCount(): number {
    return [...this.sinks.values()].filter((connection) => connection.ready).length;
  }

  post(message: HostMessage): void {
    for (const [sink, connection] of this.sinks) {
      if (connection.ready) {
        sink.post(message);
      }
    }
  }
}
