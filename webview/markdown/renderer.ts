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

/**
 * The characters of link addresses one render may write: LINK_ADDRESSES_PER_CHAR for each character of its text,
 * and LINK_ADDRESSES_SLACK more. A label defined once is written out at each use: 2,000 uses of a 100 KB address made
 * 410 MB of HTML of a 122 KB answer (the address twice a link: its `href` and its title) and stalled the page.
 * Inline links and autolinks never reach it: their addresses are in the text, at most 9 characters each once
 * percent-encoded (a character of 3 UTF-8 bytes). Past it a link is shown inert, its text without its address.
 */
export const LINK_ADDRESSES_PER_CHAR = 10;
export const LINK_ADDRESSES_SLACK = 16_384;
/** What is left of each render's link addresses, by the `env` markdown-it hands every rule of that render. */
const linkBudgets = new WeakMap<Env, { left: number }>();

/** `env`, given the link addresses a render of `text` may write. */
function withLinkBudget(text: string, env: Env): Env {
  linkBudgets.set(env, { left: text.length * LINK_ADDRESSES_PER_CHAR + LINK_ADDRESSES_SLACK });
  return env;
}

/** A link's attributes: what its address allows while the render's addresses fit, else inert. */
function shownLinkAttrs(href: string, env: Env | undefined): [string, string][] {
  const budget = env && linkBudgets.get(env);
  if (budget && href.length > budget.left) {
    return [
      ['class', 'md-link-inert'],
      ['title', 'Link not shown: this message’s link addresses are too long'],
    ];
  }
  if (budget) {
    budget.left -= href.length;
  }
  return linkAttrs(classifyLink(href), href);
}

md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx] as Token;
  const href = String(token.attrGet('href') ?? '');
  token.attrs = shownLinkAttrs(href, env);
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx] as Token;
  const alt = self.renderInlineAsText(token.children ?? [], options, env) || 'image';
  const src = String(token.attrGet('src') ?? '');
  const attrs = shownLinkAttrs(src, env)
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
  return md.render(text, withLinkBudget(text, env));
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
  const budgeted = withLinkBudget(text, env);
  return tailPieces(md.parse(text, budgeted), (tokens) => md.renderer.render(tokens, md.options, budgeted));
}
