// Types of what TypeScript benches import from heapSnapshot.mjs.
import type { Page } from 'playwright-core';

/** From a heap snapshot of `page` (MB): V8's compiled code in its heap, and Blink's objects beside it. */
export function snapshotMb(page: Page): Promise<{ codeMb: number; blinkMb: number }>;
