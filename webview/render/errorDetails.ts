import { Disclosure } from './disclosure';
import { el } from './dom';

/** What the protocol calls each JSON-RPC code an agent is likely to answer with. */
const CODE_NAMES: Readonly<Record<number, string>> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32800]: 'Request cancelled',
  [-32000]: 'Authentication required',
  [-32002]: 'Resource not found',
  [-32022]: 'Unsupported protocol version',
  429: 'Too many requests',
};

/**
 * The view's own bound on the agent's data: the host already cuts it to about 2,000 characters,
 * but what reaches the page is shown only up to this size whatever sent it.
 */
const MAX_SHOWN_DATA_CHARS = 8000;

export interface ErrorDetailsInfo {
  readonly kind: string;
  readonly code?: number;
  /** The agent's `data`, bounded and pretty-printed by the host; shown as text, never as HTML. */
  readonly data?: string;
}

/**
 * The "Details" part of an error: the JSON-RPC code (with its name) and what the agent sent in the
 * error's `data`, collapsed until asked for so a failed turn stays one short box. Undefined when the
 * error carries neither (e.g. the agent process exited: its output has its own part).
 */
export function errorDetailsView(error: ErrorDetailsInfo): HTMLElement | undefined {
  if (error.code === undefined && error.data === undefined) {
    return undefined;
  }
  const details = new Disclosure('error-details', false);
  details.header.append(el('span', '', 'Details'));
  const facts = el('dl', 'error-facts', el('dt', '', 'Kind'), el('dd', 'error-kind', error.kind));
  if (error.code !== undefined) {
    const name = CODE_NAMES[error.code];
    facts.append(
      el('dt', '', 'Code'),
      el('dd', 'error-code', name ? `${error.code} (${name})` : String(error.code)),
    );
  }
  details.body.append(facts);
  if (error.data !== undefined) {
    const shown =
      error.data.length > MAX_SHOWN_DATA_CHARS ? `${error.data.slice(0, MAX_SHOWN_DATA_CHARS)}…` : error.data;
    const data = el('pre', 'error-data', shown);
    // Scrollable with the keyboard, and named for screen readers.
    data.tabIndex = 0;
    data.setAttribute('aria-label', 'What the agent sent with the error');
    details.body.append(el('div', 'error-data-label', 'The agent sent:'), data);
  }
  return details.element;
}
