// Types of what TypeScript benches import from rows.mjs.
export type Row = [string, string, string, string, boolean | undefined, string?];
export function formatRow(row: Row): string;
export function hostMemoryRows(figures: unknown, problem?: string): Row[];
export function statusIdleRows(idle: unknown): Row[];
