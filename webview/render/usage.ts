import type { SessionStateMessage } from '../../src/protocol';
import { compactNumber, el } from './dom';

type Usage = NonNullable<SessionStateMessage['usage']>;

/** Context window use as a thin bar and numbers: "1.2k / 200k tokens · $0.01". */
export class UsageMeter {
  readonly element: HTMLElement;
  private readonly fill = el('div', 'usage-fill');
  private readonly text = el('span', 'usage-text');

  constructor() {
    const bar = el('div', 'usage-bar', this.fill);
    bar.setAttribute('aria-hidden', 'true');
    this.element = el('div', 'usage', bar, this.text);
    this.element.setAttribute('role', 'meter');
    this.element.setAttribute('aria-label', 'Context window used');
    this.element.setAttribute('aria-valuemin', '0');
    this.element.hidden = true;
  }

  update(usage: Usage | undefined): void {
    this.element.hidden = !usage;
    if (!usage) {
      return;
    }
    const ratio = usage.size > 0 ? Math.min(1, Math.max(0, usage.used / usage.size)) : 0;
    this.fill.style.width = `${(ratio * 100).toFixed(1)}%`;
    this.element.dataset.level = ratio >= 0.95 ? 'critical' : ratio >= 0.8 ? 'high' : 'normal';
    const cost = usage.cost ? ` · ${formatCost(usage.cost.amount, usage.cost.currency)}` : '';
    const text = `${compactNumber(usage.used)} / ${compactNumber(usage.size)} tokens${cost}`;
    this.text.textContent = text;
    this.element.title = `${usage.used.toLocaleString('en-US')} of ${usage.size.toLocaleString('en-US')} tokens (${Math.round(ratio * 100)}%)${cost}`;
    this.element.setAttribute('aria-valuemax', String(usage.size));
    this.element.setAttribute('aria-valuenow', String(usage.used));
    this.element.setAttribute('aria-valuetext', text);
  }
}

function formatCost(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: amount < 1 ? 4 : 2,
    }).format(amount);
  } catch {
    // Not an ISO 4217 code: show it as the agent sent it.
    return `${amount.toFixed(2)} ${currency}`;
  }
}
