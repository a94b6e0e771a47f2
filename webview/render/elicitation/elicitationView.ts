import {
  checkElicitationValue,
  type Elicitation,
  type ElicitationValue,
  type FormElicitation,
  type ViewMessage,
} from '../../../src/protocol';
import { button, el, icon } from '../dom';
import { type Control, controlFor, showProblem } from './fieldControls';

type Post = (message: ViewMessage) => boolean;

/**
 * The agent's questions in the chat's footer: a form (native controls in a fieldset, labelled, with
 * descriptions, required markers and a message under each invalid field) or a URL to open (shown
 * with its host; opened only by "Open"). Submit checks the fields first — all but the agent's
 * `pattern`s, which only the host runs (in linear time) and whose verdict comes back through
 * `showProblems`; Decline and Cancel answer at once.
 */
export class ElicitationView {
  readonly element: HTMLElement;
  private shown: readonly Elicitation[] = [];
  /** The form on screen and its controls, for the host's verdict on its answer. */
  private shownForm: { readonly key: string; readonly controls: readonly Control[] } | undefined;

  constructor(
    private readonly post: Post,
    private readonly requestFocus: (element: HTMLElement) => void,
    /** Tells screen readers a question came (focus stays put while the user is typing a message). */
    private readonly announce: (text: string) => void,
  ) {
    this.element = el('div', 'elicitations');
    this.element.hidden = true;
  }

  update(items: readonly Elicitation[]): void {
    if (items === this.shown) {
      return;
    }
    const before = new Set(this.shown.map((item) => item.key));
    this.shown = items;
    this.element.hidden = items.length === 0;
    // Only the oldest question is shown: answering it brings the next.
    const first = items[0];
    if (!first) {
      this.shownForm = undefined;
      this.element.replaceChildren();
      return;
    }
    if (before.has(first.key) && this.element.firstElementChild?.getAttribute('data-key') === first.key) {
      return; // keep what the user typed
    }
    const card = first.mode === 'form' ? this.formCard(first) : this.urlCard(first);
    if (first.mode !== 'form') {
      this.shownForm = undefined;
    }
    card.setAttribute('data-key', first.key);
    this.element.replaceChildren(card);
    this.announce(
      first.mode === 'form'
        ? `The agent asks: ${first.title ?? 'a question'}. ${first.message}`
        : `The agent asks you to open a page on ${first.host}. ${first.message}`,
    );
  }

  /** The host refused the answer to `key`: each field's problem under it, the first one focused. */
  showProblems(key: string, problems: Readonly<Record<string, string>>): void {
    if (this.shownForm?.key !== key) {
      return;
    }
    let firstInvalid: Control | undefined;
    for (const control of this.shownForm.controls) {
      const problem = problems[control.field.name];
      showProblem(control, problem);
      firstInvalid ??= problem ? control : undefined;
    }
    firstInvalid?.input.focus();
  }

  private formCard(form: FormElicitation): HTMLElement {
    const controls = form.fields.map((field) => controlFor(field));
    this.shownForm = { key: form.key, controls };
    const legend = el('legend', 'elicitation-title', icon('question'), form.title ?? 'The agent asks');
    const fieldset = el(
      'fieldset',
      'elicitation-fields',
      legend,
      el('p', 'elicitation-message', form.message),
      ...controls.map((control) => control.element),
    );
    const element = el('form', 'elicitation elicitation-form', fieldset);
    element.noValidate = true;
    element.setAttribute('aria-label', form.title ?? 'The agent asks');
    const submit = (): void => {
      let firstInvalid: Control | undefined;
      const values: Record<string, ElicitationValue> = {};
      for (const control of controls) {
        const value = control.read();
        const problem = checkElicitationValue(control.field, value);
        showProblem(control, problem);
        firstInvalid ??= problem ? control : undefined;
        if (value !== undefined) {
          values[control.field.name] = value;
        }
      }
      if (firstInvalid) {
        firstInvalid.input.focus();
        return;
      }
      this.post({ type: 'answer_elicitation', key: form.key, answer: { action: 'accept', values } });
    };
    element.addEventListener('submit', (event) => {
      event.preventDefault();
      submit();
    });
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.post({ type: 'answer_elicitation', key: form.key, answer: { action: 'cancel' } });
      } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
        // Enter in any field submits (there is no native submit button for the browser to press).
        event.preventDefault();
        submit();
      }
    });
    fieldset.append(
      el(
        'div',
        'elicitation-actions',
        button('Submit', { icon: 'check', onClick: submit }),
        this.answerButton(form.key, 'Decline', 'decline'),
        this.answerButton(form.key, 'Cancel', 'cancel'),
      ),
    );
    const firstInput = controls[0]?.input;
    this.requestFocus(firstInput ?? element);
    return element;
  }

  private urlCard(item: Extract<Elicitation, { mode: 'url' }>): HTMLElement {
    const link = el('code', 'elicitation-url', item.url);
    const open = button(`Open ${item.host}`, {
      icon: 'link-external',
      title: item.url,
      onClick: () => this.post({ type: 'answer_elicitation', key: item.key, answer: { action: 'accept' } }),
    });
    const element = el(
      'section',
      'elicitation elicitation-url-card',
      el(
        'h3',
        'elicitation-title',
        icon('link-external'),
        `The agent asks you to open a page on ${item.host}`,
      ),
      el('p', 'elicitation-message', item.message),
      link,
      el(
        'div',
        'elicitation-actions',
        open,
        this.answerButton(item.key, 'Decline', 'decline'),
        this.answerButton(item.key, 'Cancel', 'cancel'),
      ),
    );
    element.setAttribute('role', 'region');
    element.setAttribute('aria-label', 'The agent asks you to open a page');
    // Esc cancels, as on a form.
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        this.post({ type: 'answer_elicitation', key: item.key, answer: { action: 'cancel' } });
      }
    });
    this.requestFocus(open);
    return element;
  }

  private answerButton(key: string, label: string, action: 'decline' | 'cancel'): HTMLElement {
    return button(label, {
      secondary: true,
      onClick: () => this.post({ type: 'answer_elicitation', key, answer: { action } }),
    });
  }
}
