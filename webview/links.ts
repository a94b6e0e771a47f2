/**
 * What a link in agent output may do. Agent text is untrusted, so every href is classified here
 * and only two kinds act: web pages (opened by the host in the browser) and files (opened in an
 * editor). Everything else — `javascript:`, `data:`, `vbscript:`, `mailto:`, in-page anchors,
 * protocol-relative URLs — is inert.
 */
export type LinkTarget =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'file'; readonly path: string; readonly line?: number }
  | { readonly kind: 'inert' };

const INERT: LinkTarget = { kind: 'inert' };

/** Browsers drop ASCII whitespace and controls inside a scheme ("java\tscript:"), so we do too. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f]/g;
/** A path with control characters is not a file anyone meant to link to. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f]/;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const WINDOWS_DRIVE = /^[a-zA-Z]:[\\/]/;

/** Classifies an href (as written by the agent, or as markdown-it normalised it). */
export function classifyLink(href: string): LinkTarget {
  const trimmed = href.trim();
  if (trimmed === '') {
    return INERT;
  }
  const compact = trimmed.replace(IGNORED_IN_SCHEME, '');
  if (WINDOWS_DRIVE.test(compact)) {
    return fileTarget(safeDecode(trimmed));
  }
  const scheme = SCHEME.exec(compact)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    return webTarget(trimmed);
  }
  if (scheme === 'file') {
    return fileUriTarget(trimmed);
  }
  if (scheme !== undefined) {
    return INERT;
  }
  if (compact.startsWith('#') || compact.startsWith('//') || compact.startsWith('\\\\')) {
    return INERT;
  }
  // An absolute POSIX path, or a workspace-relative one ("src/a.ts:12", "./b.ts#L3"), as agents write.
  return fileTarget(safeDecode(trimmed));
}

function webTarget(href: string): LinkTarget {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { kind: 'url', url: url.href } : INERT;
  } catch {
    return INERT;
  }
}

function fileUriTarget(href: string): LinkTarget {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return INERT;
  }
  let path = safeDecode(url.pathname);
  // file:///C:/x → C:/x ; file://server/share/x → //server/share/x (UNC).
  if (/^\/[a-zA-Z]:/.test(path)) {
    path = path.slice(1);
  } else if (url.hostname !== '' && url.hostname !== 'localhost') {
    path = `//${url.hostname}${path}`;
  }
  const line = lineOfHash(url.hash);
  const target = fileTarget(path);
  if (target.kind !== 'file' || line === undefined) {
    return target;
  }
  return { kind: 'file', path: target.path, line };
}

/** Splits "path:12", "path:12:3", "path#L12", "path#L12-L20", "path#12" into path and line. */
function fileTarget(raw: string): LinkTarget {
  let path = raw;
  let line: number | undefined;
  const hashAt = path.indexOf('#');
  if (hashAt >= 0) {
    line = lineOfHash(path.slice(hashAt));
    path = path.slice(0, hashAt);
  }
  const suffix = /:(\d+)(?::\d+)?$/.exec(path);
  if (suffix?.[1] !== undefined) {
    line ??= positive(Number(suffix[1]));
    path = path.slice(0, suffix.index);
  }
  if (path === '' || CONTROL.test(path)) {
    return INERT;
  }
  return line === undefined ? { kind: 'file', path } : { kind: 'file', path, line };
}

function lineOfHash(hash: string): number | undefined {
  const match = /^#L?(\d+)/i.exec(hash);
  return match?.[1] === undefined ? undefined : positive(Number(match[1]));
}

function positive(value: number): number | undefined {
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** "src/a.ts:12" — how a file target is shown. */
export function describeFileTarget(path: string, line?: number): string {
  return line === undefined ? path : `${path}:${line}`;
}
