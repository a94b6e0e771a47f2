import type { ToolContentMessage } from '../../src/protocol';
import { attachmentChip } from './attachments';
import { diffView } from './diffView';
import { el } from './dom';
import { truncationNote } from './message';
import { TerminalView } from './terminals/terminalView';
import type { RenderContext } from './types';

interface ContentView {
  readonly content: ToolContentMessage;
  readonly element: HTMLElement;
  readonly terminal?: TerminalView;
}

/**
 * A tool call's content items. Items equal to what is shown keep their element, so a status
 * update does not recompute a diff or reset a terminal's scroll.
 */
export class ToolContentList {
  readonly element = el('div', 'tool-content');
  private views: ContentView[] = [];

  constructor(private readonly context: RenderContext) {}

  update(content: readonly ToolContentMessage[]): void {
    const next = content.map((item, index) => {
      const current = this.views[index];
      return current && sameContent(current.content, item) ? current : this.create(item);
    });
    if (next.length === this.views.length && next.every((view, index) => view === this.views[index])) {
      return;
    }
    this.views = next;
    this.element.replaceChildren(...next.map((view) => view.element));
    this.element.hidden = next.length === 0;
  }

  /** Shows new output for `terminalId` if this list has that terminal. */
  updateTerminal(terminalId: string): void {
    for (const view of this.views) {
      if (view.terminal?.terminalId === terminalId) {
        view.terminal.update(this.context.terminal(terminalId));
      }
    }
  }

  get hasDiff(): boolean {
    return this.views.some((view) => view.content.type === 'diff');
  }

  private create(content: ToolContentMessage): ContentView {
    switch (content.type) {
      case 'text': {
        const pre = el('pre', 'tool-text', content.text);
        pre.tabIndex = 0;
        const element = el(
          'div',
          'tool-text-wrap',
          pre,
          content.truncated ? truncationNote(content.truncated) : null,
        );
        return { content, element };
      }
      case 'diff':
        return { content, element: diffView(content, this.context) };
      case 'terminal': {
        const terminal = new TerminalView(content.terminalId, () =>
          this.context.post({ type: 'open_terminal', terminalId: content.terminalId }),
        );
        terminal.update(this.context.terminal(content.terminalId));
        return { content, element: terminal.element, terminal };
      }
      case 'attachment':
        return {
          content,
          element: el('div', 'attachments', attachmentChip(content.attachment, this.context)),
        };
      default: {
        const never: never = content;
        return { content: never, element: el('div') };
      }
    }
  }
}

function sameContent(a: ToolContentMessage, b: ToolContentMessage): boolean {
  switch (a.type) {
    case 'text':
      return (
        b.type === 'text' && a.text === b.text && a.truncated?.omittedChars === b.truncated?.omittedChars
      );
    case 'diff':
      return b.type === 'diff' && a.path === b.path && a.oldText === b.oldText && a.newText === b.newText;
    case 'terminal':
      return b.type === 'terminal' && a.terminalId === b.terminalId;
    case 'attachment':
      return b.type === 'attachment' && JSON.stringify(a.attachment) === JSON.stringify(b.attachment);
    default:
      return false;
  }
}
