import type { ViewMessage } from '../../../src/protocol';
import { checkbox, el, iconButton, icon } from '../dom';

/**
 * Edit and resend: while an earlier message is being edited, a strip above the composer says so (with
 * Cancel, and — when that message's turn has a checkpoint — "Restore the files to before it first"),
 * and the composer's next send goes out as `edit_resend`, which forks the chat at that message.
 */
export class EditStrip {
  readonly element = el('div', 'edit-strip');
  private editing: { readonly entryId: string; readonly restore?: HTMLInputElement } | undefined;
  /** The edit last sent, until the host forks (another chat shows) or does not send it (`resume`). */
  private sent:
    { readonly entryId: string; readonly canRestore: boolean; readonly restore: boolean } | undefined;

  constructor(private readonly onCancel: () => void) {
    this.element.hidden = true;
    this.element.setAttribute('role', 'status');
  }

  get active(): boolean {
    return this.editing !== undefined;
  }

  /** Starts editing the user message `entryId`; `canRestore`: its turn has a checkpoint to go back to. */
  start(entryId: string, canRestore: boolean): void {
    // One line of text beside its icon and Cancel; the checkbox on a line of its own under the text, so
    // a narrow sidebar neither squeezes the text to a word a line nor lays the box over it.
    const restore = canRestore
      ? checkbox('Restore the files to before it first', false, () => undefined)
      : null;
    restore?.classList.add('edit-restore');
    this.element.replaceChildren(
      icon('edit'),
      el('span', 'edit-strip-text', 'Editing an earlier message: sending forks the chat there.'),
      iconButton('close', 'Cancel editing', () => this.cancel()),
      ...(restore ? [restore] : []),
    );
    this.element.hidden = false;
    const box = restore?.querySelector('input');
    this.editing = { entryId, ...(box ? { restore: box } : {}) };
  }

  /** Leaves editing (another chat is shown, or the edit was sent). */
  stop(): void {
    this.editing = undefined;
    this.sent = undefined;
    this.element.hidden = true;
    this.element.replaceChildren();
  }

  /** A composer message while editing: a `send` becomes the edit's `edit_resend` (and editing ends). */
  intercept(message: ViewMessage): ViewMessage {
    if (!this.editing || message.type !== 'send') {
      return message;
    }
    const { type: _send, ...fields } = message;
    const restoreOffered = this.editing.restore !== undefined;
    const restore = this.editing.restore?.checked === true;
    const edit: ViewMessage = {
      type: 'edit_resend',
      entryId: this.editing.entryId,
      ...(restore ? { restoreCheckpoint: true } : {}),
      ...fields,
    };
    const entryId = this.editing.entryId;
    this.stop();
    this.sent = { entryId, canRestore: restoreOffered, restore };
    return edit;
  }

  /**
   * The host did not send the edit (the user cancelled its restore, or it failed): editing goes on as it
   * was — same message, the restore box as it was ticked — while the composer gets the text back.
   */
  resume(): void {
    const sent = this.sent;
    this.sent = undefined;
    if (sent === undefined) {
      return;
    }
    this.start(sent.entryId, sent.canRestore);
    if (this.editing?.restore) {
      this.editing.restore.checked = sent.restore;
    }
  }

  private cancel(): void {
    this.stop();
    this.onCancel();
  }
}
