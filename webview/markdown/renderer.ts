import MarkdownIt from 'markdown-it';
import type { Env, Token } from 'markdown-it';
import { classifyLink, describeFileTarget, type LinkTarget } from '../links';
import { codeBlockHtml, escapeHtml, languageOf } from './codeBlock';
import { LinkifyIt } from './linkify';
import { tailPieces, type TailPiece } from './tailPieces';

/**
 * Markdown for untrusted agent text: raw HTML is disabled (it is shown as text), every link is
 * classified by `classifyLink` and marked for the view's click handler, images become links (no
 * remote loads, no tracking pixels), and code blocks get a language label and a Copy button.
 * The output is the only agent-derived HTML the view ever assigns to innerHTML.
 */
// Autolinks are the chat's own (webview/markdown/linkify.ts, in place of linkify-it in the bundle):
// web URLs and www. hosts, no bare names or e-mail addresses.
const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
// Set here too, not only swapped in by the bundle, so tests in Node link exactly as the view does.
md.linkify = new LinkifyIt() as unknown as typeof md.linkify;
// Let every link through the parser; link_open below decides what it may do.
md.validateLink = () => true;

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx] as Token;
  return codeBlockHtml(languageOf(token.info), token.content);
};
md.renderer.rules.code_block = (tokens, idx) => codeBlockHtml('', (tokens[idx] as Token).content);

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx] as Token;
  const href = String(token.attrGet('href') ?? '');
  token.attrs = linkAttrs(classifyLink(href), href);
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx] as Token;
  const alt = self.renderInlineAsText(token.children ?? [], options, env) || 'image';
  const src = String(token.attrGet('src') ?? '');
  const attrs = linkAttrs(classifyLink(src), src)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<a${attrs}><span class="codicon codicon-file-media" aria-hidden="true"></span>${escapeHtml(alt)}</a>`;
};

md.renderer.rules.table_open = () => '<div class="md-table"><table>\n';
// markdown-it aligns table columns with a style attribute, which the webview's CSP blocks (and
// reports): a class does the same.
for (const rule of ['th_open', 'td_open']) {
  md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx] as Token;
    const align = /^text-align:(left|center|right)$/.exec(String(token.attrGet('style') ?? ''))?.[1];
    if (token.attrs) {
      token.attrs = token.attrs.filter(([name]) => name !== 'style');
    }
    if (align) {
      token.attrJoin('class', `md-align-${align}`);
    }
    return self.renderToken(tokens, idx, options);
  };
}
md.renderer.rules.table_close = () => '</table></div>\n';

/** The attributes the click handler reads; an inert link gets no href. */
function linkAttrs(target: LinkTarget, href: string): [string, string][] {
  switch (target.kind) {
    case 'url':
      return [
        ['href', target.url],
        ['data-link', 'url'],
        ['title', target.url],
      ];
    case 'file': {
      const attrs: [string, string][] = [
        ['href', href],
        ['data-link', 'file'],
        ['data-path', target.path],
        ['title', describeFileTarget(target.path, target.line)],
      ];
      if (target.line !== undefined) {
        attrs.push(['data-line', String(target.line)]);
      }
      return attrs;
    }
    case 'inert':
      return [
        ['class', 'md-link-inert'],
        ['title', 'Link not opened: only web and file links are allowed'],
      ];
    default: {
      const never: never = target;
      throw new Error(`Unknown link target ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Renders markdown to sanitised HTML (see the module comment). `env.references`: link definitions from the
 * rest of the text (markdown/linkReferences.ts); markdown-it adds the text's own to it.
 */
export function renderMarkdown(text: string, env: Env = {}): string {
  return md.render(text, env);
}

/** Plain text as the renderer writes it in a paragraph (markdown-it escapes `&<>"`, nothing else). */
export function renderedText(text: string): string {
  return md.utils.escapeHtml(text);
}

/** A link label as markdown-it keys its definitions: trimmed, white space collapsed, case folded. */
export function referenceLabel(label: string): string {
  return md.utils.normalizeReference(label);
}

/** Renders markdown as renderMarkdown does, cut into the pieces a streaming tail is shown in (tailPieces.ts). */
export function renderTailPieces(text: string, env: Env = {}): TailPiece[] {
  return tailPieces(md.parse(text, env), (tokens) => md.renderer.render(tokens, md.options, env));
}
