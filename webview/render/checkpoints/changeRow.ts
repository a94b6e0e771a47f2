import type { TurnFileChangeMessage } from '../../../src/protocol';
import { el, icon, iconButton } from '../dom';

/** What a change card asks the host for: a file's diff, or to keep or undo a change. */
export type ChangeAction = 'diff' | 'keep' | 'undo';

const KIND: Record<TurnFileChangeMessage['kind'], { icon: string; label: string }> = {
  created: { icon: 'diff-added', label: 'Created' },
  modified: { icon: 'diff-modified', label: 'Modified' },
  deleted: { icon: 'diff-removed', label: 'Deleted' },
};

const DECISION_BADGES: Partial<Record<TurnFileChangeMessage['decision'], string>> = {
  kept: 'Kept',
  undone: 'Undone',
};

/** A link's kind, in words: what the turn did with it. */
const LINK_KIND: Record<TurnFileChangeMessage['kind'], string> = {
  created: 'Link created',
  modified: 'Now a link',
  deleted: 'Link removed',
};

/**
 * One file of a change card: kind icon, the name (bold) and folder (dim) that open the diff, +/−
 * or "binary", the Kept / Undone badge, and Open diff, Keep and Undo (those two while the change
 * is pending and the turn no longer writes); a link shows its target, and a note when it leads outside.
 */
export function changeRow(
  file: TurnFileChangeMessage,
  live: boolean,
  send: (action: ChangeAction, path: string) => void,
): HTMLElement {
  const kind = file.link ? { icon: 'file-symlink-file', label: LINK_KIND[file.kind] } : KIND[file.kind];
  const { name, folder } = splitPath(file.relativePath);
  const kindIcon = icon(kind.icon);
  kindIcon.classList.add('change-kind');
  kindIcon.removeAttribute('aria-hidden');
  kindIcon.setAttribute('role', 'img');
  kindIcon.setAttribute('aria-label', kind.label);
  kindIcon.title = kind.label;

  // "→ target", as the link names it (the agent's text: shown, never followed here).
  const target = file.link ? el('span', 'change-link-target', `→ ${file.link.target}`) : null;
  const open = el(
    'button',
    'change-path link-button',
    el('span', 'change-name', name),
    folder ? el('span', 'change-folder', folder) : null,
    target,
  );
  open.type = 'button';
  open.title = file.link ? `${kind.label}: ${file.path} → ${file.link.target}` : file.path;
  // Named by the path alone: the row's Open diff button carries the action's name.
  open.setAttribute(
    'aria-label',
    file.link ? `${file.relativePath} → ${file.link.target}` : file.relativePath,
  );
  open.addEventListener('click', () => send('diff', file.path));

  const stats = file.binary
    ? el('span', 'change-binary', 'binary')
    : el(
        'span',
        'diff-stats',
        el('span', 'diff-stat-add', `+${file.added}`),
        el('span', 'diff-stat-del', `−${file.removed}`),
      );
  if (!file.binary) {
    stats.setAttribute('aria-label', `${file.added} lines added, ${file.removed} removed`);
  }
  const badge = DECISION_BADGES[file.decision];
  const buttons = el(
    'span',
    'change-buttons',
    iconButton('diff', `Open the diff of ${file.relativePath}`, () => send('diff', file.path)),
    ...(file.decision === 'pending' && !live
      ? [
          decideButton('check', `Keep the change to ${file.relativePath}`, () => send('keep', file.path)),
          // A file that may have existed before the turn is never deleted: no Undo to offer.
          file.beforeUnknown
            ? null
            : decideButton('discard', `Undo the change to ${file.relativePath}`, () =>
                send('undo', file.path),
              ),
        ]
      : []),
  );
  const why = noteOf(file);
  const outside = outsideNote(file);
  const row = el(
    'li',
    'change-row',
    kindIcon,
    open,
    stats,
    badge ? el('span', 'change-badge', badge) : null,
    buttons,
    outside
      ? el('span', 'change-note change-outside', icon('warning'), el('span', undefined, outside))
      : null,
    why ? el('span', 'change-note', icon('warning'), el('span', undefined, why)) : null,
  );
  row.dataset.path = file.path;
  row.dataset.kind = file.kind;
  row.dataset.decision = file.decision;
  return row;
}

/** For a link the turn made to a place outside the workspace: said plainly. */
function outsideNote(file: TurnFileChangeMessage): string | undefined {
  if (!file.link?.outside || file.kind === 'deleted') {
    return undefined;
  }
  return `It links to ${file.link.target}, outside the workspace: the agent may have changed files outside the workspace through it.`;
}

/**
 * Why Undo leaves this file (the last Undo's words), or that it may have existed before the turn
 * (it was ignored then, so it is not known to be new).
 */
function noteOf(file: TurnFileChangeMessage): string | undefined {
  if (file.problem !== undefined) {
    return file.problem;
  }
  return file.beforeUnknown && file.decision === 'pending'
    ? 'Ignored before the turn, so it may have existed then: Undo leaves it.'
    : undefined;
}

/** Keep or Undo of one file: locked once clicked, until the host's answer rebuilds the row. */
function decideButton(iconName: string, label: string, onClick: () => void): HTMLButtonElement {
  const control = iconButton(iconName, label, () => {
    if (control.getAttribute('aria-disabled') !== 'true') {
      onClick();
    }
  });
  control.classList.add('change-decide');
  return control;
}

/** "src/lib/a.ts" → name "a.ts", folder "src/lib" (either separator: Windows paths too). */
export function splitPath(relativePath: string): { name: string; folder: string } {
  const cut = Math.max(relativePath.lastIndexOf('/'), relativePath.lastIndexOf('\\'));
  return cut < 0
    ? { name: relativePath, folder: '' }
    : { name: relativePath.slice(cut + 1), folder: relativePath.slice(0, cut) };
}
