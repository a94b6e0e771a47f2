import type { ViewMessage } from '../src/protocol';

/**
 * One delegated handler for what markdown HTML contains: links (marked by the markdown renderer
 * with data-link) and code block Copy buttons. No element ever navigates the webview itself.
 */
export function handleContentClicks(root: HTMLElement, post: (message: ViewMessage) => boolean): void {
  const onClick = (event: MouseEvent): void => {
    const target = event.target instanceof Element ? event.target : null;
    const copy = target?.closest<HTMLElement>('[data-action="copy-code"]');
    if (copy && root.contains(copy)) {
      event.preventDefault();
      void copyCode(copy);
      return;
    }
    const anchor = target?.closest<HTMLAnchorElement>('a');
    if (!anchor || !root.contains(anchor)) {
      return;
    }
    event.preventDefault();
    if (event.type !== 'click') {
      return;
    }
    const kind = anchor.dataset.link;
    if (kind === 'url') {
      post({ type: 'open_url', url: anchor.getAttribute('href') ?? '' });
    } else if (kind === 'file' && anchor.dataset.path) {
      const line = Number(anchor.dataset.line);
      post({
        type: 'open_file',
        path: anchor.dataset.path,
        ...(Number.isSafeInteger(line) && line > 0 ? { line } : {}),
      });
    }
  };
  root.addEventListener('click', onClick);
  // Middle click would otherwise try to open the link in a new window.
  root.addEventListener('auxclick', onClick);
}

async function copyCode(button: HTMLElement): Promise<void> {
  const code = button.closest('.code-block')?.querySelector('code');
  if (!code) {
    return;
  }
  const text = code.textContent ?? '';
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    copied = copyWithSelection(code);
  }
  flash(button, copied ? 'Copied' : 'Press Ctrl+C to copy', copied ? 'check' : 'warning');
}

/** Where the async clipboard is not allowed: select the code and use the legacy copy command. */
function copyWithSelection(code: Element): boolean {
  const selection = window.getSelection();
  if (!selection) {
    return false;
  }
  const range = document.createRange();
  range.selectNodeContents(code);
  selection.removeAllRanges();
  selection.addRange(range);
  try {
    // Deprecated but still the only fallback; the code stays selected if it fails.
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

const FLASH_MS = 1500;

function flash(button: HTMLElement, label: string, iconName: string): void {
  const labelEl = button.querySelector('.code-copy-label');
  const iconEl = button.querySelector('.codicon');
  if (!labelEl || !iconEl) {
    return;
  }
  labelEl.textContent = label;
  iconEl.className = `codicon codicon-${iconName}`;
  button.classList.add('flash');
  setTimeout(() => {
    labelEl.textContent = 'Copy';
    iconEl.className = 'codicon codicon-copy';
    button.classList.remove('flash');
  }, FLASH_MS);
}
