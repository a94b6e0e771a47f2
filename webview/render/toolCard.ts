import type { ThreadEntryMessage } from '../../src/protocol';
import { describeFileTarget } from '../links';
import { Disclosure } from './disclosure';
import { el, icon, setIdAttribute } from './dom';
import { TOOL_KIND_ICONS, TOOL_STATUS } from './icons';
import { PermissionView } from './permissions/permission';
import { ToolContentList } from './toolContent';
import type { EntryView, RenderContext, ToolCallEntry } from './types';

/** A step its turn left pending or running when it ended: no spinner that turns for ever. */
const UNFINISHED = { icon: 'circle-slash', spin: false, label: 'Did not finish (its turn ended)' };

/**
 * A tool call as a card: kind icon, title and status in a header that toggles the body
 * (locations, content, permission). Open while pending, running or awaiting permission; closed
 * once done — unless the user toggled it. A new permission request always opens it again.
 * The content (diffs, terminals) is built when the card is first open: a long chat's finished,
 * folded cards cost nothing until someone looks.
 */
export class ToolCardView implements EntryView {
  readonly element: HTMLElement;
  readonly entryId: string;
  private readonly disclosure = new Disclosure('tool-card', true);
  private readonly kindIcon = el('span', 'tool-kind');
  private readonly title = el('span', 'tool-title');
  private readonly status = el('span', 'tool-status');
  private readonly locations = el('div', 'tool-locations');
  private readonly content: ToolContentList;
  private readonly permission: PermissionView;
  private entry: ToolCallEntry;
  /** Whether the card's turn still runs: a step it left pending or running when it ended shows as ended. */
  private turnRunning = true;

  constructor(
    entry: ToolCallEntry,
    private readonly context: RenderContext,
  ) {
    this.entry = entry;
    this.content = new ToolContentList(context);
    this.permission = new PermissionView(context, () => context.paths().inText(this.entry.title));
    this.disclosure.header.append(this.kindIcon, this.title, this.status);
    this.disclosure.body.append(this.locations, this.content.element, this.permission.element);
    this.element = el('div', 'entry entry-tool', this.disclosure.element);
    this.entryId = entry.id;
    setIdAttribute(this.element, 'data-entry-id', entry.id);
    this.render(entry, undefined);
    this.disclosure.onToggle = (open) => {
      if (open) {
        this.content.update(this.entry.content);
      }
    };
  }

  update(entry: ThreadEntryMessage): void {
    if (entry.kind !== 'tool_call') {
      return;
    }
    const previous = this.entry;
    this.entry = entry;
    this.render(entry, previous);
  }

  /** The card's turn started or ended (history has no running turn). */
  setTurnRunning(running: boolean): void {
    if (running !== this.turnRunning) {
      this.turnRunning = running;
      this.render(this.entry, undefined);
    }
  }

  /** New output arrived for a terminal; updates it if this card shows it. */
  updateTerminal(terminalId: string): void {
    this.content.updateTerminal(terminalId);
  }

  get terminalIds(): string[] {
    return this.entry.content.flatMap((item) => (item.type === 'terminal' ? [item.terminalId] : []));
  }

  /** The host could not take a permission answer. */
  unlockPermission(): void {
    this.permission.unlock();
  }

  private render(entry: ToolCallEntry, previous: ToolCallEntry | undefined): void {
    const card = this.disclosure.element;
    card.dataset.status = entry.status;
    card.dataset.kind = entry.toolKind;
    if (entry.toolKind !== previous?.toolKind) {
      this.kindIcon.replaceChildren(icon(TOOL_KIND_ICONS[entry.toolKind]));
    }
    // Workspace paths in the title read relative (as VS Code shows them); the tooltip keeps the full text.
    this.title.textContent = this.context.paths().inText(entry.title);
    this.title.title = entry.title;
    const unfinished = entry.status === 'pending' || entry.status === 'in_progress';
    card.dataset.ended = String(unfinished && !this.turnRunning);
    if (entry.status !== previous?.status) {
      const status = unfinished && !this.turnRunning ? UNFINISHED : TOOL_STATUS[entry.status];
      this.status.replaceChildren(icon(status.icon, status.spin));
      this.status.setAttribute('aria-label', status.label);
      this.status.title = status.label;
      this.status.setAttribute('role', 'img');
    }
    if (entry.locations !== previous?.locations) {
      this.renderLocations(entry.locations);
    }
    this.permission.update(entry.permission);

    const awaiting = entry.permission?.status === 'pending';
    const wasAwaiting =
      previous?.permission?.status === 'pending' && previous.permission.key === entry.permission?.key;
    if (awaiting && !wasAwaiting) {
      this.disclosure.forceOpen();
    } else {
      this.disclosure.setAutoOpen(awaiting || (unfinished && this.turnRunning));
    }
    card.classList.toggle('awaiting-permission', awaiting);
    if (this.disclosure.isOpen) {
      this.content.update(entry.content);
    }
  }

  private renderLocations(locations: ToolCallEntry['locations']): void {
    this.locations.hidden = locations.length === 0;
    this.locations.replaceChildren(
      ...locations.map((location) => {
        const label = describeFileTarget(location.path, location.line);
        const shown = describeFileTarget(this.context.paths().relative(location.path), location.line);
        const link = el('button', 'location link-button', icon('file'), el('span', '', shown));
        link.type = 'button';
        link.title = `Open ${label}`;
        link.addEventListener('click', () =>
          this.context.post({
            type: 'open_file',
            path: location.path,
            ...(location.line !== undefined && location.line > 0 ? { line: Math.floor(location.line) } : {}),
          }),
        );
        return link;
      }),
    );
  }
}
