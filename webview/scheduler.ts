/**
 * Coalesces render requests into one callback per animation frame, so a burst of host messages
 * (each a batch of events) costs one DOM update. A webview that is hidden gets no frames; the
 * work waits and runs once it shows again.
 */
export class FrameScheduler {
  private pending = false;

  constructor(private readonly flush: () => void) {}

  request(): void {
    if (this.pending) {
      return;
    }
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.flush();
    });
  }
}
