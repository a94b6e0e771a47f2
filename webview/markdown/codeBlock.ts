/**
 * The code block look shared by finished markdown (built as an HTML string inside markdown-it)
 * and by a fence still streaming (built as DOM, its text updated in place). Both produce the same
 * structure so a block does not change shape when its fence closes.
 */

const escapeMap: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapeMap[char] ?? char);
}

/** The first word of a fence's info string, reduced to characters safe in a class name. */
export function languageOf(info: string): string {
  const word = info.trim().split(/\s+/)[0] ?? '';
  return word.replace(/[^\w+#.-]/g, '').slice(0, 40);
}

const COPY_BUTTON =
  '<button type="button" class="code-copy" data-action="copy-code" aria-label="Copy code" title="Copy">' +
  '<span class="codicon codicon-copy" aria-hidden="true"></span><span class="code-copy-label">Copy</span></button>';

/** A fenced or indented code block as HTML; `code` is escaped here. */
export function codeBlockHtml(language: string, code: string): string {
  const lang = escapeHtml(language);
  const label = lang === '' ? 'text' : lang;
  const codeClass = lang === '' ? '' : ` class="language-${lang}"`;
  return (
    `<div class="code-block"><div class="code-block-header"><span class="code-lang">${label}</span>` +
    `${COPY_BUTTON}</div><pre tabindex="0"><code${codeClass}>${escapeHtml(code)}</code></pre></div>\n`
  );
}

/** Code for a live code block: appended to what it shows, or all of it (`whole`). */
export interface CodeUpdate {
  readonly text: string;
  readonly whole: boolean;
}

/** An empty code block of no language, parsed once: every live block is a copy of it. */
let emptyBlock: HTMLElement | undefined;

/** A code block still receiving text: build once, then `setCode` as the fence grows. */
export class LiveCodeBlock {
  readonly element: HTMLElement;
  private readonly code: HTMLElement;

  constructor(readonly language: string) {
    if (!emptyBlock) {
      // Parsed in a detached element of the page's document, not in a template's: a copy of a
      // template's node is adopted into the page when it is inserted, which costs more than the copy.
      const holder = document.createElement('div');
      holder.innerHTML = codeBlockHtml('', '');
      emptyBlock = holder.firstElementChild as HTMLElement;
    }
    // A copy of the parsed block, not codeBlockHtml parsed again (once per fence of a stream); the
    // language is set as codeBlockHtml sets it, as text and a class.
    this.element = emptyBlock.cloneNode(true) as HTMLElement;
    this.code = this.element.querySelector('code') as HTMLElement;
    if (language !== '') {
      (this.element.querySelector('.code-lang') as HTMLElement).textContent = language;
      this.code.className = `language-${language}`;
    }
  }

  /** Shows more code (see MarkdownPlanner's codeUpdate): appended, or all of it anew. */
  update(code: CodeUpdate): void {
    if (code.whole) {
      this.code.replaceChildren(code.text);
    } else if (code.text !== '') {
      // A text node appended, not Text.appendData: that cost ≈ 0.5 ms a call in Chromium on a long block.
      this.code.append(code.text);
    }
  }
}
