/** What the focus keeper needs of the composer. */
export interface FocusHome {
  readonly input: HTMLTextAreaElement;
  focus(): void;
}

/** How many frames a focus event's page may take to say it has the focus (about a second at 60 Hz). */
const CATCH_UP_FRAMES = 60;

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
  /** The next look at whether a focus event's page has the focus yet (see `pageFocused`). */
  private catchingUp: number | undefined;
  /** While VS Code is asked to focus the view (`handOff` start to end): whether the focus reached the page. */
  private handingOff: { reached: boolean } | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly transcript: HTMLElement,
    private readonly home: FocusHome,
  ) {
    document.addEventListener('focusin', (event) => {
      this.lastFocused = event.target;
    });
    window.addEventListener('blur', () => this.stopCatchingUp());
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
   * else the message box unless a control in the chat has it. The view is a frame of another process: its
   * focus event can come before the page's focus state says so, so a page not focused yet is looked at
   * again each frame for a while — and nothing is done once the focus left again (a picker opened
   * meanwhile would close).
   */
  pageFocused(): void {
    if (this.handingOff !== undefined) {
      this.handingOff.reached = true;
    }
    this.stopCatchingUp();
    if (document.hasFocus()) {
      this.takeBackFocus();
      return;
    }
    let frames = 0;
    const again = (): void => {
      this.catchingUp = undefined;
      if (document.hasFocus()) {
        this.takeBackFocus();
      } else if (++frames < CATCH_UP_FRAMES) {
        this.catchingUp = requestAnimationFrame(again);
      }
    };
    this.catchingUp = requestAnimationFrame(again);
  }

  /** Open Chat: VS Code is asked to focus the view between `start` and `end` (see the two steps below). */
  handOff(step: 'start' | 'end'): void {
    if (step === 'start') {
      this.handOffStarted();
    } else {
      this.handOffEnded();
    }
  }

  /** VS Code is being asked to focus the view. A page that has the focus has it already. */
  private handOffStarted(): void {
    this.handingOff = { reached: document.hasFocus() };
  }

  /**
   * VS Code was asked to focus the view (Open Chat). A page that has the focus puts it where `pageFocused` does (it
   * may have had it all along: no event). One the focus never reached was left without it — VS Code under load drops
   * the focus it hands on to the view's page — and takes it: the keys reach nothing else meanwhile. One the focus
   * reached and left again since: the user went on (a picker opened, which would close), and nothing is done.
   */
  private handOffEnded(): void {
    const reached = this.handingOff?.reached;
    this.handingOff = undefined;
    if (document.hasFocus() || reached === false) {
      this.stopCatchingUp();
      this.takeBackFocus();
    }
  }

  private takeBackFocus(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting?.isConnected && this.mayTakeFocus()) {
      waiting.focus();
    } else if (this.nothingFocused()) {
      this.home.focus();
    }
  }

  private stopCatchingUp(): void {
    if (this.catchingUp !== undefined) {
      cancelAnimationFrame(this.catchingUp);
      this.catchingUp = undefined;
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
