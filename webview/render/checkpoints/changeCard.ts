import type { TurnChangesMessage, ViewMessage } from '../../../src/protocol';
import { Disclosure } from '../disclosure';
import { changeRow, type ChangeAction } from './changeRow';
import type { WorkspacePaths } from '../../workspacePaths';
import { button, el, icon, setIdAttribute } from '../dom';

/** More files than this and the card starts folded: a long list would push the answer away. */
const FOLD_ABOVE_FILES = 8;

/** A file's row (by path) or the card's actions. */
type FocusPlace = { readonly path: string } | 'actions';

interface Row {
  readonly element: HTMLElement;
  /** The file data and liveness the row was built from: an equal key keeps the row (and its focus). */
  readonly key: string;
}

/**
 * The "N files changed" card at the end of a turn: every file the turn created, modified or
 * deleted, whoever wrote it, with Open diff / Keep / Undo per file and Review all / Keep all /
 * Undo all for the turn. The host decides and answers with `turn_updated`; until then the
 * buttons of what was asked stay disabled, so a double click cannot ask twice.
 */
export class ChangeCardView {
  readonly element: HTMLElement;
  private readonly disclosure = new Disclosure('change-card', true);
  private readonly title = el('span', 'change-title');
  private readonly stats = el('span', 'change-stats diff-stats');
  private readonly liveIndicator = el(
    'span',
    'change-live',
    icon('loading', true),
    el('span', '', 'Changing…'),
  );
  private readonly actions = el('div', 'change-actions');
  /** "Changes inside `sub/` are not tracked: it is a nested repository, or …". */
  private readonly untrackedNote = el('div', 'note change-untracked');
  private readonly hint = el(
    'div',
    'note change-hint',
    icon('info'),
    el(
      'span',
      '',
      'Only files the agent named or wrote through the editor are tracked — git is not available.',
    ),
  );
  /** "The checkpoint before this turn was taken N s into it …": what the list cannot hold. */
  private readonly lateNote = el('div', 'note change-late');
  private lateText: string | undefined;
  private readonly list = el('ul', 'change-files');
  private readonly rows = new Map<string, Row>();
  private shown: TurnChangesMessage | undefined;
  private actionsKey = '';
  /** Where the last Keep or Undo was asked: focus goes back there if the answer's rebuild drops it. */
  private askedFrom: FocusPlace | undefined;

  constructor(
    private readonly turnId: string,
    private readonly post: (message: ViewMessage) => boolean,
    /** How the view shows paths: a file of the chat's worktree reads as the workspace's would. */
    private readonly paths: () => WorkspacePaths,
  ) {
    this.disclosure.header.append(icon('diff-multiple'), this.title, this.stats, this.liveIndicator);
    this.disclosure.body.append(this.hint, this.lateNote, this.untrackedNote, this.list);
    // After the body, outside it: Keep all and Undo all stay at hand when a long list is folded.
    this.disclosure.body.after(this.actions);
    this.element = el('div', 'turn-changes', this.disclosure.element);
    // A group, not a landmark region: a long chat has one card per turn.
    this.element.setAttribute('role', 'group');
    setIdAttribute(this.element, 'data-turn-id', turnId);
    this.element.hidden = true;
  }

  /**
   * Shows the turn's changes; hidden while there are none. `checkpointNote`: what is wrong with the
   * turn's checkpoint (taken late, while the turn ran), said on the card too.
   */
  update(changes: TurnChangesMessage | undefined, checkpointNote?: string): void {
    this.renderLateNote(checkpointNote);
    if (changes === this.shown) {
      return;
    }
    this.shown = changes;
    const files = changes?.files ?? [];
    this.element.hidden = !changes || files.length === 0;
    if (!changes || files.length === 0) {
      return;
    }
    const count = files.length === 1 ? '1 file changed' : `${files.length} files changed`;
    this.title.textContent = count;
    this.element.setAttribute('aria-label', count);
    const added = files.reduce((sum, file) => sum + file.added, 0);
    const removed = files.reduce((sum, file) => sum + file.removed, 0);
    this.stats.replaceChildren(
      el('span', 'diff-stat-add', `+${added}`),
      el('span', 'diff-stat-del', `−${removed}`),
    );
    this.stats.setAttribute('aria-label', `${added} lines added, ${removed} removed`);
    this.liveIndicator.hidden = !changes.live;
    this.disclosure.element.classList.toggle('live', changes.live);
    this.hint.hidden = changes.coverage !== 'limited';
    this.renderUntracked(changes.untracked ?? []);
    this.disclosure.setAutoOpen(files.length <= FOLD_ABOVE_FILES);
    const focus =
      this.focusedPlace() ?? (document.activeElement === document.body ? this.askedFrom : undefined);
    this.askedFrom = undefined;
    this.renderActions(changes);
    this.renderRows(changes);
    this.restoreFocus(focus);
  }

  private renderLateNote(text: string | undefined): void {
    this.lateNote.hidden = text === undefined;
    if (text !== undefined && text !== this.lateText) {
      this.lateNote.replaceChildren(icon('warning'), el('span', '', text));
    }
    this.lateText = text;
  }

  private renderUntracked(folders: readonly string[]): void {
    this.untrackedNote.hidden = folders.length === 0;
    const names = folders.map((folder) => el('code', '', folder));
    const joined = names.flatMap((name, i) => (i === 0 ? [name] : [', ', name]));
    this.untrackedNote.replaceChildren(
      icon('info'),
      el(
        'span',
        '',
        'Changes inside ',
        ...joined,
        folders.length === 1
          ? ' are not tracked: it is a nested repository, or its .gitignore or .gitattributes is not a regular file.'
          : ' are not tracked: nested repositories, or folders whose .gitignore or .gitattributes is not a regular file.',
      ),
    );
  }

  /** Where keyboard focus is in the card: a file's row, the card actions, or elsewhere. */
  private focusedPlace(): FocusPlace | undefined {
    const active = document.activeElement;
    if (!active || !this.element.contains(active)) {
      return undefined;
    }
    const path = active.closest<HTMLElement>('.change-row')?.dataset.path;
    if (path !== undefined) {
      return { path };
    }
    return this.actions.contains(active) ? 'actions' : undefined;
  }

  /**
   * A decision rebuilds the row (or the actions) whose button had focus: keep the keyboard user in
   * the same place, on the row's file name or on Review all, rather than dropping them on the page.
   */
  private restoreFocus(place: FocusPlace | undefined): void {
    if (place === undefined || (document.activeElement && this.element.contains(document.activeElement))) {
      return;
    }
    const target =
      place === 'actions'
        ? this.actions.querySelector<HTMLElement>('.change-review-all')
        : this.rowElement(place.path)?.querySelector<HTMLElement>('.change-path');
    target?.focus();
  }

  private renderActions(changes: TurnChangesMessage): void {
    const decidable = !changes.live && changes.files.some((file) => file.decision === 'pending');
    const key = String(decidable);
    if (key === this.actionsKey) {
      return;
    }
    this.actionsKey = key;
    // Review all as a link on the left, so Keep all and Undo all fit beside it in a narrow sidebar.
    const reviewAll = el('button', 'change-review-all link-button', icon('diff-multiple'), 'Review all');
    reviewAll.type = 'button';
    reviewAll.title = 'Open every changed file in the multi-file diff editor';
    reviewAll.addEventListener('click', () => this.send('diff'));
    this.actions.replaceChildren(
      reviewAll,
      ...(decidable
        ? [
            button('Keep all', {
              icon: 'check-all',
              title: 'Keep every change of this turn',
              onClick: () => this.send('keep'),
            }),
            button('Undo all', {
              icon: 'discard',
              secondary: true,
              title: 'Put every file this turn changed back as it was',
              onClick: () => this.send('undo'),
            }),
          ].map((control) => {
            control.classList.add('change-decide-all');
            return control;
          })
        : []),
    );
  }

  private renderRows(changes: TurnChangesMessage): void {
    const seen = new Set<string>();
    const paths = this.paths();
    const elements = changes.files.map((changed) => {
      seen.add(changed.path);
      // The host names files outside the workspace folders in full: one in the chat's worktree is shown as it.
      const file = { ...changed, relativePath: paths.relative(changed.relativePath) };
      const key = JSON.stringify([file, changes.live]);
      let row = this.rows.get(file.path);
      if (row?.key !== key) {
        row = { element: changeRow(file, changes.live, (action, path) => this.send(action, path)), key };
        this.rows.set(file.path, row);
      }
      return row.element;
    });
    for (const path of [...this.rows.keys()]) {
      if (!seen.has(path)) {
        this.rows.delete(path);
      }
    }
    // Only touch the list when the rows differ: replacing a row that has focus would drop it.
    const current = Array.from(this.list.children);
    if (current.length !== elements.length || current.some((child, index) => child !== elements[index])) {
      this.list.replaceChildren(...elements);
    }
  }

  /** Posts one action; Keep and Undo lock the buttons they apply to until the host answers. */
  private send(action: ChangeAction, path?: string): void {
    if (action !== 'diff') {
      const scope = path === undefined ? this.element : this.rowElement(path);
      // aria-disabled rather than disabled: a disabled button would lose keyboard focus.
      for (const control of scope?.querySelectorAll('.change-decide') ?? []) {
        control.setAttribute('aria-disabled', 'true');
      }
      if (path === undefined) {
        for (const control of this.actions.querySelectorAll('.change-decide-all')) {
          control.setAttribute('disabled', '');
        }
      }
      this.askedFrom = path === undefined ? 'actions' : { path };
    }
    this.post({ type: 'turn_changes', turnId: this.turnId, action, ...(path === undefined ? {} : { path }) });
  }

  private rowElement(path: string): HTMLElement | undefined {
    return this.rows.get(path)?.element;
  }

  /** The host could not act on a Keep or Undo: offer the buttons again. */
  unlock(): void {
    const changes = this.shown;
    this.shown = undefined;
    this.rows.clear();
    this.actionsKey = '';
    this.update(changes, this.lateText);
  }
}
