// Types of what TypeScript benches import from traceTimes.mjs.
export interface TraceEventLike {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly pid: number;
  readonly tid: number;
}
export function kindOf(name: string): string;
export function selfTimes(events: readonly TraceEventLike[], from?: number, to?: number): Map<string, number>;
export function threads(events: readonly TraceEventLike[]): { main: string[]; workers: string[] };
export function onThreads<T extends TraceEventLike>(events: readonly T[], keys: readonly string[]): T[];
export function formatTimes(totals: Map<string, number>): string;
export function totalTime(totals: Map<string, number>): number;
