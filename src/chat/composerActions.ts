import type { AttachmentRef } from '../protocol';
import type { ViewPresenter } from './viewPresenter';
import type { ViewSlot } from './viewSlot';
import type { EditorActions } from './viewSink';

/** The files waiting on a view's composer: picked with the paperclip, added by commands, removed by the user. */
export class ComposerActions {
  constructor(
    private readonly presenter: ViewPresenter,
    private readonly editor: EditorActions,
  ) {}

  /** The paperclip: the files the user picks go on the composer. */
  async pickFiles(view: ViewSlot): Promise<void> {
    const picked = (await this.editor.pickFiles?.()) ?? [];
    for (const attachment of picked) {
      this.addAttachment(attachment, view);
    }
  }

  /** Puts a file on the view's composer, to go with the next message (kept until sent, across view reloads). */
  addAttachment(attachment: AttachmentRef, view: ViewSlot): void {
    if (view.addAttachment(attachment)) {
      this.presenter.postTo(view, { type: 'add_attachment', attachment });
    }
  }

  removeAttachment(uri: string, view: ViewSlot): void {
    view.removeAttachment(uri);
  }
}
