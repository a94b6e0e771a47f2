import { el, icon } from './dom';

let nextId = 1;

/**
 * A header button that shows or hides a body. The view opens and closes it on its own (a tool
 * call collapses when done, thinking collapses when the answer starts) until the user toggles it;
 * from then on the user's choice wins, unless the view must force it open (a permission prompt).
 */
export class Disclosure {
  readonly element: HTMLElement;
  readonly header: HTMLButtonElement;
  readonly body: HTMLElement;
  private readonly chevron: HTMLElement;
  private userChoice: boolean | undefined;
  private autoOpen: boolean;
  private wasOpen: boolean | undefined;
  /** Called when it opens or closes (views render a body lazily, on first open). */
  onToggle: ((open: boolean) => void) | undefined;

  constructor(className: string, open: boolean) {
    this.autoOpen = open;
    this.chevron = icon('chevron-right');
    this.chevron.classList.add('disclosure-chevron');
    this.header = el('button', 'disclosure-header', this.chevron);
    this.header.type = 'button';
    this.body = el('div', 'disclosure-body');
    this.body.id = `disclosure-${nextId++}`;
    this.header.setAttribute('aria-controls', this.body.id);
    this.element = el('div', `disclosure ${className}`, this.header, this.body);
    this.header.addEventListener('click', () => {
      this.userChoice = !this.isOpen;
      // The user's choice is state the DOM alone holds: a long chat keeps this turn built.
      this.element.classList.add('user-toggled');
      this.apply();
    });
    this.apply();
  }

  get isOpen(): boolean {
    return this.userChoice ?? this.autoOpen;
  }

  /** Whether the user has opened or closed it themselves. */
  get userToggled(): boolean {
    return this.userChoice !== undefined;
  }

  /** The state the view wants; ignored once the user toggled. */
  setAutoOpen(open: boolean): void {
    this.autoOpen = open;
    this.apply();
  }

  /** Opens it whatever the user chose before (something now needs their attention). */
  forceOpen(): void {
    this.userChoice = undefined;
    this.autoOpen = true;
    this.apply();
  }

  private apply(): void {
    const open = this.isOpen;
    this.header.setAttribute('aria-expanded', String(open));
    this.body.hidden = !open;
    this.element.classList.toggle('open', open);
    if (open !== this.wasOpen) {
      this.wasOpen = open;
      this.onToggle?.(open);
    }
  }
}
