/** Something that holds a resource until disposed. Mirrors `vscode.Disposable` without importing it. */
export interface Disposable {
  dispose(): void;
}

/** Collects disposables and disposes them together, last registered first. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) {
      item.dispose();
    }
  }
}

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

/**
 * A typed event source. A throwing listener is reported to `onListenerError` and does not stop
 * the others: one broken view must not silence the transcript for the rest.
 */
export class Emitter<T> implements Disposable {
  private listeners = new Set<Listener<T>>();

  constructor(private readonly onListenerError: (error: unknown) => void = (error) => console.error(error)) {}

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
