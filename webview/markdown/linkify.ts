/**
 * The chat's autolinks, in place of linkify-it (esbuild.mjs points markdown-it's import here: 11 KiB
 * of rules for links the chat would not open). It has the part of linkify-it's interface that
 * markdown-it's two linkify rules call — `test`, `match`, `matchAtStart` — and links as GitHub does:
 *  - `http://` and `https://` URLs, and `www.` hosts (opened as `https://`); not bare names
 *    (`example.com`, `foo.md`, `index.ts`), e-mail addresses, or other schemes (`mailto:`, `ftp:`,
 *    `//host`), none of which the chat opens (webview/links.ts);
 *  - ending at a space, a control character, one of < > " ` or non-ASCII punctuation (。 — « …),
 *    without trailing punctuation (. , : ; ! ? * _ ~ ' or an `&name;` entity) or an unmatched closing
 *    bracket: `https://en.wikipedia.org/wiki/Foo_(bar)` keeps its `)`, `(see https://x.org/a)` does not;
 *  - never a URL with user info (`https://trusted.example@evil.example` reads as one host and opens
 *    another): it stays text.
 * Every link still goes through webview/links.ts's classification when it is rendered.
 */

/** A link found in text, shaped as markdown-it reads linkify-it's matches. */
export interface LinkMatch {
  /** `http:` or `https:` as written (lower-cased), or '' for a `www.` host. */
  readonly schema: string;
  readonly index: number;
  readonly lastIndex: number;
  readonly raw: string;
  /** What the link shows. */
  readonly text: string;
  /** Where it goes. */
  readonly url: string;
}

const CANDIDATE = /https?:\/\/|www\./gi;
const SCHEME_AT_START = /^https?:\/\//i;
/** A link starts a word: not after a letter, a digit, or what joins it to one (`git+https:`, `a/www.`, `a@www.`). */
const JOINED_BEFORE = /[\p{L}\p{N}\p{M}+\-/@]/u;
const LABEL = String.raw`[\p{L}\p{N}\p{M}_-]+`;
/** A host and port, whole: `x.org:123456` or `x.org:80a` is no host. */
const HOST = new RegExp(
  String.raw`(?:\[[0-9a-fA-F:.]+\]|${LABEL}(?:\.${LABEL})*)(?::\d{1,5})?(?!:\d|\.?[\p{L}\p{N}\p{M}_-])`,
  'uy',
);
/** A `www.` host names a domain under a top-level one: `www.example.com`, not `www.example`. */
const WWW_HOST = new RegExp(
  String.raw`^[wW]{3}(?:\.${LABEL})+\.(?:\p{L}{2,}|[xX][nN]--[a-zA-Z0-9-]+)(?::\d{1,5})?$`,
  'u',
);
/** What ends a URL's path, query or fragment. */
const PATH_END = /[\s\p{Cc}<>"`]|(?=\P{ASCII})\p{P}/gu;
/** Up to the end of the authority (user info, host, port). */
const AUTHORITY = /[^/?#\s<>"`]*/uy;
const TRAILING = ".,:!?*_~'";
/** An `&name;` entity at a link's end is not part of it (its `;` is looked at first). */
const ENTITY_BEFORE = /&[a-z0-9]{1,31}$/i;
const OPENING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** markdown-it's `md.linkify`: see the module comment. */
export class LinkifyIt {
  /** Whether the text has a link. */
  test(text: string): boolean {
    return this.match(text) !== null;
  }

  /** markdown-it asks `test` and then `match` of the same text: the answer to the last text asked. */
  private last: { readonly text: string; readonly links: readonly LinkMatch[] | null } | undefined;

  /** Every link in the text, in order, or null when there is none (as linkify-it answers). */
  match(text: string): readonly LinkMatch[] | null {
    if (this.last?.text !== text) {
      this.last = { text, links: findLinks(text) };
    }
    return this.last.links;
  }

  /** The `http(s)://` link the text starts with, if any (markdown-it's inline rule, at a `://`). */
  matchAtStart(text: string): LinkMatch | null {
    const at = SCHEME_AT_START.test(text) ? linkAt(text, 0) : undefined;
    return at && 'link' in at ? at.link : null;
  }
}

function findLinks(text: string): LinkMatch[] | null {
  const links: LinkMatch[] = [];
  const candidates = CANDIDATE;
  candidates.lastIndex = 0;
  for (let found = candidates.exec(text); found; found = candidates.exec(text)) {
    const before = text[found.index - 1];
    const at = before !== undefined && JOINED_BEFORE.test(before) ? undefined : linkAt(text, found.index);
    if (at && 'link' in at) {
      links.push(at.link);
    }
    // Not into what was read: a `www.` or `https://` inside a name that is no link does not start one.
    candidates.lastIndex = Math.max(
      found.index + 1,
      at ? ('link' in at ? at.link.lastIndex : at.notLinkUntil) : 0,
    );
  }
  return links.length > 0 ? links : null;
}

/** The link at text[index] (a scheme or `www.`), or how far the text read there is no link. */
function linkAt(text: string, index: number): { link: LinkMatch } | { notLinkUntil: number } {
  const scheme = SCHEME_AT_START.exec(text.slice(index, index + 8))?.[0];
  const hostStart = index + (scheme?.length ?? 0);
  AUTHORITY.lastIndex = hostStart;
  const authority = AUTHORITY.exec(text)?.[0] ?? '';
  if (authority.includes('@')) {
    return { notLinkUntil: hostStart + authority.length };
  }
  HOST.lastIndex = hostStart;
  const hostEnd = hostStart + (HOST.exec(text)?.[0].length ?? 0);
  const end = trimEnd(text, hostStart, /[/?#]/.test(text[hostEnd] ?? '') ? pathEnd(text, hostEnd) : hostEnd);
  const host = text.slice(hostStart, Math.min(hostEnd, end));
  if (host === '' || (scheme === undefined && !WWW_HOST.test(host))) {
    return { notLinkUntil: hostEnd };
  }
  const raw = text.slice(index, end);
  const link = {
    schema: scheme === undefined ? '' : scheme.slice(0, -2).toLowerCase(),
    index,
    lastIndex: end,
    raw,
    text: raw,
    url: scheme === undefined ? `https://${raw}` : raw,
  };
  return { link };
}

function pathEnd(text: string, from: number): number {
  PATH_END.lastIndex = from;
  return PATH_END.exec(text)?.index ?? text.length;
}

/** Drops trailing punctuation and unmatched closing brackets from text[start, end): where it ends then. */
function trimEnd(text: string, start: number, end: number): number {
  // Per closing bracket, how many more of it than of its opening one.
  const unmatched: Record<string, number> = { ')': 0, ']': 0, '}': 0 };
  for (let at = start; at < end; at++) {
    const char = text[at] ?? '';
    const closing = OPENING[char];
    if (closing !== undefined) {
      unmatched[closing] = (unmatched[closing] ?? 0) - 1;
    } else if (char in unmatched) {
      unmatched[char] = (unmatched[char] ?? 0) + 1;
    }
  }
  let trimmed = end;
  while (trimmed > start) {
    const last = text[trimmed - 1] ?? '';
    if (last === ';') {
      const entity = ENTITY_BEFORE.exec(text.slice(Math.max(start, trimmed - 33), trimmed - 1));
      trimmed -= 1 + (entity?.[0].length ?? 0);
    } else if (TRAILING.includes(last)) {
      trimmed--;
    } else if ((unmatched[last] ?? 0) > 0) {
      unmatched[last] = (unmatched[last] ?? 0) - 1;
      trimmed--;
    } else {
      break;
    }
  }
  return trimmed;
}
