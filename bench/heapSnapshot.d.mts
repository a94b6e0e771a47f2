// Types of what TypeScript benches import from heapSnapshot.mjs.
import type { CDPSession } from 'playwright-core';

/** Self size and count per "type:name" of a heap snapshot, and how many objects were detached. */
export interface SnapshotSummary {
  readonly summary: Map<string, { count: number; size: number }>;
  readonly detached: number;
}

/** A heap snapshot taken through `cdp` after a garbage collection, summed by kind of object. */
export function snapshotSummary(cdp: CDPSession): Promise<SnapshotSummary>;
/** The bytes of V8's compiled code (bytecode and machine code) in a `snapshotSummary`. */
export function codeBytes(summary: SnapshotSummary): number;
