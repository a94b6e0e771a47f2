import type { ViewMessage, WorktreeAction, WorktreeInfo, WorktreeOffer } from '../../../src/protocol';
import { button, el, icon, iconButton } from '../dom';

/** What the bar shows: the chat's worktree, or (for an empty chat) the offer to start in one. */
export interface WorktreeBarState {
  readonly worktree: WorktreeInfo | undefined;
  readonly offer: WorktreeOffer | undefined;
  /** A turn runs: the steps that read or change the worktree wait. */
  readonly running: boolean;
}

/**
 * Under the header: the branch and the worktree a chat works in, what it holds against its base
 * (+/− lines in N files) and the steps to bring the work back — Apply to Workspace, Commit on its
 * branch, Open in a new window, Discard. For an empty chat in a repository: "Start in a new worktree"
 * and "Ask several agents…".
 */
export class WorktreeBar {
  readonly element = el('div', 'worktree-bar');
  private shown: WorktreeBarState | undefined;

  constructor(private readonly post: (message: ViewMessage) => boolean) {
    this.element.setAttribute('role', 'region');
    this.element.setAttribute('aria-label', 'Worktree');
    this.element.hidden = true;
  }

  update(state: WorktreeBarState): void {
    const shown = this.shown;
    if (shown && shown.worktree === state.worktree && shown.offer === state.offer && shown.running === state.running) {
      return;
    }
    this.shown = state;
    if (state.worktree) {
      this.showWorktree(state.worktree, state.running);
    } else if (state.offer) {
      this.showOffer(state.offer);
    } else {
      this.element.hidden = true;
      this.element.replaceChildren();
    }
  }

  private showWorktree(worktree: WorktreeInfo, running: boolean): void {
    const branch = el('span', 'worktree-branch', icon('git-branch'), el('span', 'worktree-branch-name', worktree.branch));
    branch.title = `Branch ${worktree.branch}, made from ${worktree.base}`;
    const folder = el('span', 'worktree-folder', worktree.name);
    folder.title = worktree.folder;
    const line = el('div', 'worktree-line', branch, folder, this.changesText(worktree));
    const steps = worktree.problem === undefined || worktree.changes ? [this.steps(worktree, running)] : [];
    const note = worktree.busy ?? worktree.problem;
    this.element.replaceChildren(
      line,
      ...(note ? [el('div', worktree.busy ? 'worktree-note' : 'worktree-note worktree-problem', note)] : []),
      ...steps,
    );
    this.element.classList.toggle('worktree-offer', false);
    this.element.hidden = false;
  }

  private changesText(worktree: WorktreeInfo): HTMLElement | null {
    const changes = worktree.changes;
    if (!changes) {
      return null;
    }
    if (changes.files === 0) {
      return el('span', 'worktree-changes', 'no changes');
    }
    const files = `${changes.files} file${changes.files === 1 ? '' : 's'}`;
    const text = el(
      'button',
      'link-button worktree-changes',
      el('span', 'worktree-added', `+${changes.added}`),
      ' ',
      el('span', 'worktree-removed', `−${changes.removed}`),
      ` in ${files}`,
    );
    text.type = 'button';
    text.title = 'Show the worktree’s changes';
    text.addEventListener('click', () => this.act('show_changes'));
    return text;
  }

  private steps(worktree: WorktreeInfo, running: boolean): HTMLElement {
    const discarded = worktree.problem?.startsWith('Discarded') === true;
    const busy = worktree.busy !== undefined || running || discarded;
    const apply = button('Apply to Workspace', { icon: 'check', onClick: () => this.act('apply') });
    apply.title = 'Bring the worktree’s changes into the workspace (a three-way merge, undoable)';
    const commit = iconButton('git-commit', 'Commit on its branch', () => this.act('commit'));
    const open = iconButton('multiple-windows', 'Open the worktree in a new window', () => this.act('open_window'));
    const discard = iconButton('trash', 'Discard the worktree and its branch', () => this.act('discard'));
    for (const step of [apply, commit, discard]) {
      step.toggleAttribute('disabled', busy);
    }
    open.toggleAttribute('disabled', discarded);
    return el('div', 'worktree-steps', apply, commit, open, discard);
  }

  private showOffer(offer: WorktreeOffer): void {
    const start = button('Start in a new worktree', {
      icon: 'git-branch',
      secondary: true,
      title: 'Work on a branch of its own, in a folder beside the repository: the workspace stays as it is',
      onClick: () => this.act('create'),
    });
    const several = button('Ask several agents…', {
      icon: 'organization',
      secondary: true,
      title: 'Send one prompt to several agents, each in a worktree of its own, and compare what they did',
      onClick: () => this.act('ask_several'),
    });
    for (const step of [start, several]) {
      step.toggleAttribute('disabled', !offer.available);
    }
    this.element.replaceChildren(
      el('div', 'worktree-steps', start, several),
      ...(offer.available || !offer.reason ? [] : [el('div', 'worktree-note', offer.reason)]),
    );
    this.element.classList.toggle('worktree-offer', true);
    this.element.hidden = false;
  }

  private act(action: WorktreeAction): void {
    this.post({ type: 'worktree_action', action });
  }
}
