import type { SessionStateMessage } from '../../src/protocol';
import { Disclosure } from './disclosure';
import { el, icon } from './dom';

type PlanItem = SessionStateMessage['plan'][number];

const STATUS_ICONS: Record<PlanItem['status'], { icon: string; spin: boolean; label: string }> = {
  pending: { icon: 'circle-large-outline', spin: false, label: 'Pending' },
  in_progress: { icon: 'loading', spin: true, label: 'In progress' },
  completed: { icon: 'pass-filled', spin: false, label: 'Completed' },
};

/** A step the agent left in progress when its turn ended (or before a reload): not spinning for ever. */
const STOPPED = { icon: 'circle-slash', spin: false, label: 'Not finished (the turn ended)' };

/** The agent's plan as a checklist above the composer; folds itself away once all is done. */
export class PlanView {
  readonly element: HTMLElement;
  private readonly disclosure = new Disclosure('plan', true);
  private readonly progress = el('span', 'plan-progress');
  private readonly list = el('ol', 'plan-items');
  private shown: readonly PlanItem[] | undefined;
  private shownRunning = false;

  constructor() {
    this.disclosure.header.append(icon('checklist'), el('span', 'plan-title', 'Plan'), this.progress);
    this.disclosure.body.append(this.list);
    this.element = this.disclosure.element;
    this.element.hidden = true;
  }

  /** `running`: a turn runs now; without one, no step is in progress any more. */
  update(plan: readonly PlanItem[], running: boolean): void {
    if (plan === this.shown && running === this.shownRunning) {
      return;
    }
    this.shown = plan;
    this.shownRunning = running;
    this.element.hidden = plan.length === 0;
    const done = plan.filter((item) => item.status === 'completed').length;
    this.progress.textContent = `${done}/${plan.length}`;
    this.disclosure.setAutoOpen(done < plan.length);
    this.list.replaceChildren(
      ...plan.map((item) => {
        const status = item.status === 'in_progress' && !running ? STOPPED : STATUS_ICONS[item.status];
        const mark = icon(status.icon, status.spin);
        mark.removeAttribute('aria-hidden');
        mark.setAttribute('role', 'img');
        mark.setAttribute('aria-label', status.label);
        const row = el('li', 'plan-item', mark, el('span', 'plan-text', item.content));
        row.dataset.status = item.status;
        row.dataset.priority = item.priority;
        if (item.priority === 'high') {
          row.append(el('span', 'plan-priority', 'high'));
        }
        return row;
      }),
    );
  }
}
