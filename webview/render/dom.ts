/*
 * Small DOM builders. Text always goes in as Text nodes (`append` of strings), never as HTML, so
 * agent output cannot become markup here.
 */

type Child = Node | string | null | undefined | false;

/** Creates an element with an optional class and children (strings become text). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) {
    element.className = className;
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) {
      element.append(child);
    }
  }
  return element;
}

/**
 * Sets attribute `name` to one of the chat's ids (an entry's, a turn's). Blink makes a string it is handed
 * external: its characters move to Blink's allocator with a 16-byte record beside them (a heap snapshot
 * counts a short id at 56 bytes instead of 16), for as long as the string lives — and the store keeps its
 * ids as long as the chat is open, three a short turn, evicted or not. Blink is handed a copy instead,
 * which goes with the element.
 */
export function setIdAttribute(element: Element, name: string, id: string): void {
  // Joined, a new string (`slice()` or a template of the id alone would hand over the same one).
  element.setAttribute(name, id.slice(0, 1) + id.slice(1));
}

/**
 * A child element made only while it has something to show (most turns have no footer, most messages
 * no extras): `show` fills it, making it as the last child of `parent` first, or takes it away when
 * given nothing. It holds its parent rather than a function placing it: a finished turn keeps one of
 * these, and a closure with its context would cost every turn kept in a long chat more heap.
 */
export class OptionalChild {
  private made: HTMLElement | undefined;

  constructor(
    private readonly className: string,
    private readonly parent: HTMLElement,
  ) {}

  /** The element while it is shown. */
  get element(): HTMLElement | undefined {
    return this.made;
  }

  show(nodes: Node[]): void {
    if (nodes.length === 0) {
      this.made?.remove();
      this.made = undefined;
      return;
    }
    if (!this.made) {
      this.made = el('div', this.className);
      this.parent.append(this.made);
    }
    this.made.replaceChildren(...nodes);
  }
}

/** A codicon, hidden from assistive technology (the surrounding control carries the name). */
export function icon(name: string, spin = false): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = `codicon codicon-${name}${spin ? ' codicon-modifier-spin' : ''}`;
  span.setAttribute('aria-hidden', 'true');
  return span;
}

interface ButtonOptions {
  readonly icon?: string;
  readonly secondary?: boolean;
  /** Accessible name when it differs from the label. */
  readonly ariaLabel?: string;
  readonly title?: string;
  readonly onClick: () => void;
}

/** A vscode-button with a text label. */
export function button(label: string, options: ButtonOptions): HTMLElement {
  const element = document.createElement('vscode-button');
  // Set now rather than when Lit first renders, so the button can take focus right away.
  element.setAttribute('tabindex', '0');
  element.append(label);
  if (options.icon) {
    element.setAttribute('icon', options.icon);
  }
  if (options.secondary) {
    element.setAttribute('secondary', '');
  }
  if (options.ariaLabel) {
    element.setAttribute('aria-label', options.ariaLabel);
  }
  if (options.title) {
    element.title = options.title;
  }
  element.addEventListener('click', () => {
    if (!element.hasAttribute('disabled')) {
      options.onClick();
    }
  });
  return element;
}

/** An SVG element with its attributes: drawings that must match a @vscode-elements component's exactly. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: SVGElement[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}

/**
 * A native checkbox drawn like vscode-checkbox (its box, check mark and focus ring; the component
 * was 11 KiB of bundle): the input stays in the page, visually hidden, so role, keyboard and label
 * are the browser's own. `title` is the hover text.
 */
export function checkbox(
  label: string,
  checked: boolean,
  onChange: (checked: boolean) => void,
  title?: string,
): HTMLLabelElement {
  const input = el('input', 'checkbox-input');
  input.type = 'checkbox';
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  const mark = svg(
    'svg',
    { width: '16', height: '16', viewBox: '0 0 16 16', fill: 'currentColor', 'aria-hidden': 'true' },
    svg('path', {
      'fill-rule': 'evenodd',
      'clip-rule': 'evenodd',
      d: 'M14.431 3.323l-8.47 10-.79-.036-3.35-4.77.818-.574 2.978 4.24 8.051-9.506.764.646z',
    }),
  );
  const element = el(
    'label',
    'checkbox',
    input,
    el('span', 'checkbox-box', mark),
    el('span', 'checkbox-label', label),
  );
  if (title) {
    element.title = title;
  }
  return element;
}

/** A borderless icon button (a native button: cheap enough for every card and code block). */
export function iconButton(iconName: string, label: string, onClick: () => void): HTMLButtonElement {
  const element = el('button', 'icon-button', icon(iconName));
  element.type = 'button';
  element.setAttribute('aria-label', label);
  element.title = label;
  element.addEventListener('click', onClick);
  return element;
}

/** "1.2k", "200k", "1.5M" — token counts at a glance. */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs < 1000) {
    return String(Math.round(value));
  }
  const [divisor, suffix] = abs < 1e6 ? [1e3, 'k'] : abs < 1e9 ? [1e6, 'M'] : [1e9, 'B'];
  const scaled = value / divisor;
  const text = Math.abs(scaled) < 10 ? scaled.toFixed(1) : Math.round(scaled).toString();
  return `${text.replace(/\.0$/, '')}${suffix}`;
}
