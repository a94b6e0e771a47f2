import type { MentionKind } from '../../../src/protocol';

/** The codicon of what a mention or attachment points at. */
export function mentionIcon(kind: MentionKind | undefined): string {
  switch (kind) {
    case 'folder':
      return 'folder';
    case 'editor':
      return 'file-code';
    case 'selection':
      return 'selection';
    case 'symbol':
      return 'symbol-method';
    case 'problems':
      return 'warning';
    case 'chat':
      return 'comment-discussion';
    case 'file':
    case undefined:
      return 'file';
    default: {
      const unknown: never = kind;
      return String(unknown);
    }
  }
}
