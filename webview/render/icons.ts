import type { ToolCallEntry } from './types';

/** The codicon for each tool kind. */
export const TOOL_KIND_ICONS: Record<ToolCallEntry['toolKind'], string> = {
  read: 'file',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  search: 'search',
  execute: 'terminal',
  think: 'lightbulb',
  fetch: 'globe',
  switch_mode: 'arrow-both',
  other: 'tools',
};

/** Icon, spin and words for a tool call's status. */
export const TOOL_STATUS: Record<ToolCallEntry['status'], { icon: string; spin: boolean; label: string }> = {
  pending: { icon: 'circle-large-outline', spin: false, label: 'Pending' },
  in_progress: { icon: 'loading', spin: true, label: 'Running' },
  completed: { icon: 'check', spin: false, label: 'Completed' },
  failed: { icon: 'error', spin: false, label: 'Failed' },
};
