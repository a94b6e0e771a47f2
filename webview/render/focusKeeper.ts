/** What the focus keeper needs of the composer. */
export interface FocusHome {
  readonly input: HTMLTextAreaElement;
  focus(): void;
}

/**
 * Where keyboard focus goes as the chat changes under it. A new question or permission request takes
 * focus unless the user is busy elsewhere (typing a message, in the header's pickers); and when the
 * focused control goes away — a permission answered, a form sent, declined or cancelled — focus goes
 * back to the message box instead of falling to the page, where the keyboard reaches nothing.
 */
export class FocusKeeper {
  private readonly requests: HTMLElement[] = [];
  /** The newest request made while the page did not have the focus: it waits for the user to come back. */
  private waiting: HTMLElement | undefined;
  /** The element that last received focus, to tell a removed control from a click on the page. */
  private lastFocused: EventTarget | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly transcript: HTMLElement,
    private readonly home: FocusHome,
  ) {
    document.addEventListener('focusin', (event) => {
      this.lastFocused = event.target;
    });
  }

  /** Moves focus to `element` at the next `settle`, unless the user is busy elsewhere then. */
  request(element: HTMLElement): void {
    this.requests.push(element);
  }

  /** After a render: honours the newest request, else brings focus home when its control went away. */
  settle(): void {
    const target = this.requests.pop() ?? this.waiting;
    this.requests.length = 0;
    // Never while the user is outside the page (in the editor, in a picker its button opened): focus taken
    // there takes their keys — Enter meant for the editor would answer a permission's first button — and
    // VS Code's picker closes when it loses it. A request waits for them to come back (`pageFocused`).
    if (!document.hasFocus()) {
      this.waiting = target;
      return;
    }
    this.waiting = undefined;
    if (target?.isConnected && this.mayTakeFocus()) {
      target.focus();
      return;
    }
    if (this.focusWentAway()) {
      this.home.focus();
    }
  }

  /**
   * The page got the focus (the view focused, the user came back): what the agent asked meanwhile takes it,
   * else the message box unless a control in the chat has it. Nothing when the focus left again before this
   * ran (a picker opened meanwhile would close).
   */
  pageFocused(): void {
    if (!document.hasFocus()) {
      return;
    }
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting?.isConnected && this.mayTakeFocus()) {
      waiting.focus();
    } else if (this.nothingFocused()) {
      this.home.focus();
    }
  }

  /** No control of the chat has the focus: the page itself (or nothing) does. */
  private nothingFocused(): boolean {
    const active = document.activeElement;
    return !active || active === document.body || active === this.root;
  }

  /**
   * Whether a request may move focus: nothing has it, or the transcript has it, or the message box has it
   * while empty (the message was just sent; what the agent now asks comes first). Never from text being typed.
   */
  private mayTakeFocus(): boolean {
    const active = document.activeElement;
    if (this.nothingFocused() || (active !== null && this.transcript.contains(active))) {
      return true;
    }
    return active === this.home.input && this.home.input.value === '';
  }

  /** The page has focus because the focused control left it (not because the user clicked the page). */
  private focusWentAway(): boolean {
    return this.nothingFocused() && this.lastFocused instanceof Node && !this.lastFocused.isConnected;
  }
}
