// Types of what TypeScript benches import from webviewPage.mjs.
import type { Frame, Page } from 'playwright-core';

/** The renderers' resident memory (MB, VmRSS from /proc), if known. */
export function rendererRssMb(): number | undefined;
/** The page's JS heap in use after a full garbage collection (MiB), by the DevTools protocol. */
export function heapMb(page: Page): Promise<number>;
/** The elements in the document of `target`. */
export function elementCount(target: Page | Frame): Promise<number>;
