/**
 * One form field of an agent's question as a native control: labelled, described, marked required or
 * optional, with the message under it that says what is wrong (aria-invalid on the control while it shows).
 */
import { checkElicitationValue, type ElicitationField, type ElicitationValue } from '../../../src/protocol';
import { el } from '../dom';

/** One field's control and how to read it. */
export interface Control {
  readonly field: ElicitationField;
  readonly element: HTMLElement;
  /** Focusable element that carries aria-invalid. */
  readonly input: HTMLInputElement | HTMLSelectElement | HTMLFieldSetElement;
  readonly error: HTMLElement;
  read(): ElicitationValue | undefined;
}

/** What every kind of control has around it: its id, label text, description and error message. */
interface FieldParts {
  readonly id: string;
  readonly error: HTMLElement;
  readonly description: HTMLElement | null;
  labelText(): HTMLElement[];
  /** Gives the control its id, what describes it and whether it is required. */
  wire(input: HTMLInputElement | HTMLSelectElement | HTMLFieldSetElement): void;
}

type FieldOf<K extends ElicitationField['kind']> = Extract<ElicitationField, { kind: K }>;

let nextId = 1;

export function showProblem(control: Control, problem: string | undefined): void {
  control.error.textContent = problem ?? '';
  control.error.hidden = problem === undefined;
  if (problem) {
    control.input.setAttribute('aria-invalid', 'true');
  } else {
    control.input.removeAttribute('aria-invalid');
  }
}

export function controlFor(field: ElicitationField): Control {
  const parts = fieldParts(field);
  switch (field.kind) {
    case 'boolean':
      return checkboxControl(field, parts);
    case 'choice':
      return choiceControl(field, parts);
    case 'multi':
      return multiChoiceControl(field, parts);
    case 'number':
    case 'text':
      return inputControl(field, parts);
  }
}

function fieldParts(field: ElicitationField): FieldParts {
  const id = `elicit-${nextId++}`;
  const error = el('div', 'elicitation-error');
  error.id = `${id}-error`;
  error.hidden = true;
  error.setAttribute('role', 'alert');
  const description = field.description ? el('div', 'elicitation-description', field.description) : null;
  if (description) {
    description.id = `${id}-description`;
  }
  const describedBy = [description?.id, error.id].filter(Boolean).join(' ');
  return {
    id,
    error,
    description,
    labelText: () => [
      el('span', '', field.label),
      field.required ? required() : el('span', 'elicitation-optional', ' (optional)'),
    ],
    wire: (input) => {
      input.id = id;
      input.setAttribute('aria-describedby', describedBy);
      if (field.required && !(input instanceof HTMLFieldSetElement)) {
        input.setAttribute('aria-required', 'true');
      }
    },
  };
}

function checkboxControl(field: FieldOf<'boolean'>, parts: FieldParts): Control {
  const input = el('input', 'elicitation-checkbox');
  input.type = 'checkbox';
  input.checked = field.default ?? false;
  parts.wire(input);
  const label = el('label', 'elicitation-label', input, ...parts.labelText());
  const element = row(label, parts.description, parts.error);
  return { field, input, error: parts.error, element, read: () => input.checked };
}

function choiceControl(field: FieldOf<'choice'>, parts: FieldParts): Control {
  const select = el('select', 'elicitation-input');
  select.append(el('option', '', field.required ? 'Choose…' : '(none)'));
  (select.firstElementChild as HTMLOptionElement).value = '';
  for (const choice of field.choices) {
    const option = el('option', '', choice.label);
    option.value = choice.value;
    select.append(option);
  }
  select.value = field.default ?? '';
  parts.wire(select);
  return {
    field,
    input: select,
    error: parts.error,
    element: row(fieldLabel(parts.id, parts.labelText()), parts.description, select, parts.error),
    read: () => (select.value === '' ? undefined : select.value),
  };
}

function multiChoiceControl(field: FieldOf<'multi'>, parts: FieldParts): Control {
  const group = el('fieldset', 'elicitation-multi', el('legend', 'elicitation-label', ...parts.labelText()));
  const boxes = field.choices.map((choice) => {
    const box = el('input', 'elicitation-checkbox');
    box.type = 'checkbox';
    box.value = choice.value;
    box.checked = field.default?.includes(choice.value) ?? false;
    group.append(el('label', 'elicitation-choice', box, choice.label));
    return box;
  });
  parts.wire(group);
  group.tabIndex = -1;
  return {
    field,
    input: group,
    error: parts.error,
    element: row(group, parts.description, parts.error),
    read: () => boxes.filter((box) => box.checked).map((box) => box.value),
  };
}

/** A text or number field; what is wrong shows once the user moves on, and typing again clears it. */
function inputControl(field: FieldOf<'number' | 'text'>, parts: FieldParts): Control {
  const input = el('input', 'elicitation-input');
  if (field.kind === 'number') {
    numberInput(input, field);
  } else {
    input.type = field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : 'text';
    input.placeholder = placeholderOf(field.format);
    if (field.default !== undefined) {
      input.value = field.default;
    }
  }
  parts.wire(input);
  const read = (): ElicitationValue | undefined => {
    const raw = input.value.trim();
    if (raw === '') {
      return undefined;
    }
    return field.kind === 'number' ? Number(raw) : input.value;
  };
  const element = row(fieldLabel(parts.id, parts.labelText()), parts.description, input, parts.error);
  const control: Control = { field, input, error: parts.error, element, read };
  input.addEventListener('change', () => showProblem(control, checkElicitationValue(field, read())));
  return control;
}

function numberInput(input: HTMLInputElement, field: FieldOf<'number'>): void {
  input.type = 'number';
  input.step = field.integer ? '1' : 'any';
  if (field.minimum !== undefined) {
    input.min = String(field.minimum);
  }
  if (field.maximum !== undefined) {
    input.max = String(field.maximum);
  }
  if (field.default !== undefined) {
    input.value = String(field.default);
  }
}

function placeholderOf(format: string | undefined): string {
  switch (format) {
    case 'email':
      return 'name@example.com';
    case 'date':
      return 'YYYY-MM-DD';
    case 'date-time':
      return 'YYYY-MM-DDThh:mm';
    case 'uri':
      return 'https://…';
    default:
      return '';
  }
}

function fieldLabel(id: string, children: HTMLElement[]): HTMLLabelElement {
  const label = el('label', 'elicitation-label', ...children);
  label.htmlFor = id;
  return label;
}

function required(): HTMLElement {
  const mark = el('span', 'elicitation-required', ' *');
  mark.title = 'Required';
  mark.setAttribute('aria-label', 'required');
  return mark;
}

function row(...children: (HTMLElement | null)[]): HTMLElement {
  return el('div', 'elicitation-row', ...children);
}
