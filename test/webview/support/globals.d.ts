// What the test page's stand-in (fixture/vscodeStub.js) and the XSS payloads put on window.
export {};

declare global {
  interface Window {
    __posted: unknown[];
    __cspViolations: string[];
    __xss?: number;
  }
}
