// Types of what TypeScript benches import from processCpu.mjs.

/** The CPU time (ms) used so far by the bench's processes, by role, and by the whole machine. */
export interface CpuByRole {
  readonly machine: number | undefined;
  readonly roles: Readonly<Record<string, number>>;
}

export function descendants(root?: string): string[];
export function threadCpuMs(task: string): number;
export function cpuByRole(): CpuByRole;
/** Each role's CPU (ms) since `before`, with `all` (every role but the bench's) and `other` (the rest of the machine). */
export function cpuSince(before: CpuByRole): Record<string, number>;
