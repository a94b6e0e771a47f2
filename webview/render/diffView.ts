import { diffLines, type DiffHunk, type DiffLine } from '../diff';
import { el, icon } from './dom';
import type { RenderContext } from './types';

/** Lines drawn at most per diff; the rest is summarised (a card must stay cheap to render). */
const MAX_RENDERED_LINES = 1500;

export interface DiffContent {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string;
  readonly truncated?: { readonly limit: number; readonly omittedChars: number };
}

/** A unified diff of one file: header with path and +/− counts, then hunks with a line gutter. */
export function diffView(content: DiffContent, context: RenderContext): HTMLElement {
  const diff = diffLines(content.oldText, content.newText);
  const { body, hidden } = diffBody(diff.hunks, content.path);
  const notes = [
    hidden > 0
      ? el('div', 'note', icon('ellipsis'), `${hidden.toLocaleString('en-US')} more lines not shown.`)
      : null,
    diff.approximate
      ? el('div', 'note', icon('info'), 'Large change: shown as a replacement, not a minimal diff.')
      : null,
    content.truncated
      ? el(
          'div',
          'note note-truncated',
          icon('fold'),
          'The edit was truncated: the diff shows only its start.',
        )
      : null,
  ].filter((note): note is HTMLDivElement => note !== null);
  return el('div', 'diff', diffHeader(content, diff, context), body, ...notes);
}

/** The file's path (a button that opens it where the edit starts), "New file", and the +/− counts. */
function diffHeader(
  content: DiffContent,
  diff: ReturnType<typeof diffLines>,
  context: RenderContext,
): HTMLElement {
  const path = el(
    'button',
    'diff-path link-button',
    icon('file'),
    el('span', 'diff-path-text path-text', el('bdi', '', context.paths().relative(content.path))),
  );
  // The file opens where the edit starts, not at its top.
  const line = firstChangedLine(diff.hunks);
  path.type = 'button';
  path.title = line === undefined ? `Open ${content.path}` : `Open ${content.path} at line ${line}`;
  path.addEventListener('click', () =>
    context.post({ type: 'open_file', path: content.path, ...(line === undefined ? {} : { line }) }),
  );
  const stats = el(
    'span',
    'diff-stats',
    el('span', 'diff-stat-add', `+${diff.added}`),
    el('span', 'diff-stat-del', `−${diff.removed}`),
  );
  stats.setAttribute('aria-label', `${diff.added} lines added, ${diff.removed} removed`);
  return el(
    'div',
    'diff-header',
    path,
    content.oldText === null ? el('span', 'diff-badge', 'New file') : null,
    stats,
  );
}

/** The hunks, each under its `@@` line, at most `MAX_RENDERED_LINES` lines drawn; how many were not. */
function diffBody(hunks: readonly DiffHunk[], path: string): { body: HTMLElement; hidden: number } {
  const body = el('div', 'diff-body');
  body.tabIndex = 0;
  body.setAttribute('role', 'region');
  body.setAttribute('aria-label', `Changes to ${path}`);
  let rendered = 0;
  let hidden = 0;
  for (const hunk of hunks) {
    if (rendered >= MAX_RENDERED_LINES) {
      hidden += hunk.lines.length;
      continue;
    }
    body.append(hunkRow(hunk));
    for (const line of hunk.lines) {
      if (rendered >= MAX_RENDERED_LINES) {
        hidden++;
        continue;
      }
      body.append(lineRow(line));
      rendered++;
    }
  }
  if (hunks.length === 0) {
    body.append(el('div', 'diff-empty', 'No changes'));
  }
  return { body, hidden };
}

function hunkRow(hunk: DiffHunk): HTMLElement {
  return el(
    'div',
    'diff-line diff-hunk',
    el('span', 'diff-gutter'),
    el('span', 'diff-gutter'),
    el('span', 'diff-sign'),
    el('span', 'diff-text', `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`),
  );
}

const SIGNS: Record<DiffLine['kind'], string> = { add: '+', del: '−', context: ' ' };

function lineRow(line: DiffLine): HTMLElement {
  return el(
    'div',
    `diff-line diff-${line.kind}`,
    el('span', 'diff-gutter', line.oldNo === undefined ? '' : String(line.oldNo)),
    el('span', 'diff-gutter', line.newNo === undefined ? '' : String(line.newNo)),
    el('span', 'diff-sign', SIGNS[line.kind]),
    el('span', 'diff-text', line.text),
  );
}

/** The line of the new text where the first change is (a deletion: the line after it). */
export function firstChangedLine(hunks: readonly DiffHunk[]): number | undefined {
  const hunk = hunks[0];
  if (!hunk) {
    return undefined;
  }
  let previousNew = hunk.newStart - 1;
  for (const line of hunk.lines) {
    if (line.kind === 'add' && line.newNo !== undefined) {
      return line.newNo;
    }
    if (line.kind === 'del') {
      return Math.max(1, previousNew + 1);
    }
    previousNew = line.newNo ?? previousNew;
  }
  return Math.max(1, hunk.newStart);
}
