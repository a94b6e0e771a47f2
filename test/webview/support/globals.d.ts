// What the test page's stand-in (fixture/vscodeStub.js) and the XSS payloads put on window.
export {};

declare global {
  interface Window {
    __posted: unknown[];
    __cspViolations: string[];
    __xss?: number;
    /** What the markdown worker did: its state, whether answers are awaited, their apply time, how often all were applied. */
    __markdown: {
      worker: 'starting' | 'ready' | 'unavailable';
      busy: boolean;
      applyMs: number;
      settled: number;
    };
  }
}
