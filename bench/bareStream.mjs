// The streaming floor: the same answer shown in the same frames by a bare view — the markdown planner's
// operations for each host message, worked out beforehand in Node, applied with plain DOM calls into the
// answer's element (no store, no zod, no chunks, no worker, none of the page's own script). What it costs the
// page's main thread is what showing that text frame by frame costs Chromium, whoever shows it.
/* global window, document */
import { tsImport } from 'tsx/esm/api';
import { freshPage, stage, withCpu } from './webviewPage.mjs';
import { streamingSnapshot, streamMessages } from './workloads.mjs';

const { MarkdownPlanner } = await tsImport('../webview/markdown/markdownPlanner.ts', import.meta.url);
const { codeBlockHtml } = await tsImport('../webview/markdown/codeBlock.ts', import.meta.url);
const { renderMarkdown } = await tsImport('../webview/markdown/renderer.ts', import.meta.url);

/**
 * Each host message's markdown operations, as the bare view applies them: the planner's, with a fence's
 * opening given as its empty code block's HTML (the page's own builds it from a template).
 */
export function bareFrames(text) {
  const planner = new MarkdownPlanner();
  return streamMessages(text).map((message) =>
    planner.append(message.events.map((event) => event.text).join('')).map((op) => {
      if (op.op === 'reset') {
        throw new Error('a stream that only appends planned a reset');
      }
      return op.op === 'open' ? { op: 'open', html: codeBlockHtml(op.language, '') } : op;
    }),
  );
}

/** Finished blocks a chunk holds in the page's own view (webview/markdown/markdownDom.ts). */
const BLOCKS_PER_CHUNK = 32;

/**
 * In the page: the bare view in the answer's element, and `window.__bareStep(ops)`, which applies one
 * message's operations in the next frame, keeps the view at the bottom and times both (the bottom read
 * forces the frame's layout, as the stream's step forces it). Each block is a `div.md-block`, as the page's;
 * `chunked`: they go into chunks as the page's do (`.md-chunk`, full at BLOCKS_PER_CHUNK: the styles let a full
 * chunk off screen skip layout and paint), else into one flat list, as a plain chat view shows them.
 */
export const bareViewScript = (chunked) => `(() => {
  const answer = document.querySelector('[data-entry-id="a1"] .markdown');
  const log = document.querySelector('.transcript');
  const tail = document.createElement('div');
  answer.replaceChildren(tail);
  let chunk;
  let live;
  const place = (block) => {
    if (!${chunked}) { tail.before(block); return; }
    if (!chunk || chunk.childElementCount >= ${BLOCKS_PER_CHUNK}) {
      chunk = document.createElement('div');
      chunk.className = 'md-chunk';
      tail.before(chunk);
    }
    chunk.append(block);
    if (chunk.childElementCount === ${BLOCKS_PER_CHUNK}) { chunk.classList.add('md-chunk-full'); }
  };
  // The tail by pieces, as the page's (webview/markdown/tailDom.ts): what a change keeps stays.
  let pieces = [];
  const insert = (parent, html) => {
    const before = parent.lastChild;
    parent.insertAdjacentHTML('beforeend', html);
    let count = 0;
    for (let node = before ? before.nextSibling : parent.firstChild; node; node = node.nextSibling) { count++; }
    return count;
  };
  const removeLast = (parent, count) => {
    for (let left = count; left > 0 && parent.lastChild; left--) { parent.lastChild.remove(); }
  };
  const count = (piece) => (typeof piece === 'number' ? piece : piece.nodes);
  const total = (shown) => shown.reduce((sum, piece) => sum + count(piece), 0);
  const add = (parent, piece) => {
    if (typeof piece === 'string') { return insert(parent, piece); }
    const nodes = insert(parent, piece.open + piece.close);
    const first = parent.childNodes[parent.childNodes.length - nodes];
    const container = piece.container === 'table' ? first.querySelector(':scope > table > tbody')
      : piece.inItem ? first.lastElementChild : first;
    return { nodes, container, items: piece.items.map((item) => add(container, item)) };
  };
  const changeItems = (shown, change) => {
    removeLast(shown.container, total(shown.items.splice(change.grow ? change.keep + 1 : change.keep)));
    if (change.grow) { changeItems(shown.items[change.keep], change.grow); }
    for (const item of change.items) { shown.items.push(add(shown.container, item)); }
  };
  const showTail = (op) => {
    removeLast(tail, total(pieces.splice(op.grow ? op.keep + 1 : op.keep)));
    if (op.grow) { changeItems(pieces[op.keep], op.grow); }
    for (const piece of op.pieces) { pieces.push(add(tail, piece)); }
  };
  const block = (html, open) => {
    const element = document.createElement('div');
    element.className = open ? 'md-block md-block-open' : 'md-block';
    element.innerHTML = html;
    return element;
  };
  const apply = (op) => {
    switch (op.op) {
      case 'block': place(block(op.html, false)); return;
      case 'open':
        tail.replaceChildren();
        pieces = [];
        live = block(op.html, true);
        place(live);
        return;
      case 'code': {
        const code = live.querySelector('code');
        if (op.code.whole) { code.replaceChildren(op.code.text); } else { code.append(op.code.text); }
        return;
      }
      case 'finish-live': live.querySelector('code').append(op.code.text); live.append('\\n'); break;
      case 'finish': live.innerHTML = op.html; break;
      case 'drop-open': live.remove(); live = undefined; return;
      case 'tail': showTail(op); return;
      case 'tail-text': {
        const only = pieces.length === 1 ? pieces[0] : undefined;
        if (typeof only === 'object') {
          only.container.append(op.text);
          only.items[only.items.length - 1] += 1;
        } else {
          tail.firstElementChild?.append(op.text);
        }
        return;
      }
      default: throw new Error('bare view: unknown operation ' + op.op);
    }
    live.className = 'md-block';
    live = undefined;
  };
  window.__bareText = () => answer.textContent;
  window.__bareStep = (ops) => new Promise((done) => requestAnimationFrame(() => {
    const t0 = performance.now();
    ops.forEach(apply);
    const applied = performance.now();
    log.scrollTop = log.scrollHeight;
    done({ render: applied - t0, layout: performance.now() - applied });
  }));
})()`;

/**
 * The bare view's run of `text`'s stream on a fresh chat page (the stream's turn started, nothing shown), its
 * blocks `chunked` or flat:
 * the page's main-thread CPU over every frame and each frame's apply + layout. Throws if what it shows at
 * the end is not the text rendered once (its words, in order).
 */
export async function bareStreamOnce(browser, origin, text, { chunked }) {
  const { page, problems } = await freshPage(browser, origin);
  try {
    await page.evaluate((start) => window.__step(start), streamingSnapshot());
    await page.evaluate(bareViewScript(chunked));
    await stage(page, bareFrames(text));
    const run = await withCpu(() => page.evaluate(() => window.__stepStaged(window.__bareStep)));
    const shownRightly = await page.evaluate((once) => {
      const holder = document.createElement('div');
      holder.innerHTML = once;
      // Blocks rendered one by one join with other line breaks than the text rendered whole.
      const words = (shown) => shown.replace(/\s+/g, ' ');
      return words(holder.textContent) === words(window.__bareText());
    }, renderMarkdown(text));
    if (!shownRightly) {
      throw new Error('the bare view does not show the text rendered once');
    }
    if (problems.length > 0) {
      throw new Error(`page problems: ${problems.join(' | ')}`);
    }
    return { cpuMs: run.cpuMs, frameMs: run.result.map((frame) => frame.render + frame.layout) };
  } finally {
    await page.close();
  }
}
