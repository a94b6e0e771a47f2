// Types of what TypeScript benches import from reopenRows.mjs.
import type { Row } from './rows.mjs';
export function reopenRows(reopen: unknown, problem?: string): Row[];
