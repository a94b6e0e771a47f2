// A one-off probe (issue 34), not part of `npm run bench`: what a finished answer leaves in the page's JS heap and
// in the markdown worker's, after their garbage collections. One answer (50 paragraphs, ≈ 194 KB) streams into a
// running turn a message a frame, then the turn ends; the two heaps are read before and after (a short answer streamed
// and finished first, to warm the code) through the DevTools protocol (the worker's through the page's session,
// attached as a child target).
// `node bench/finishedAnswerHeap.mjs` after `node esbuild.mjs --production`.
/* global window */
import { stepAll, withProbePage } from './webviewPage.mjs';
import { CHAT_ID, viewWith } from './workloads.mjs';

const PARAGRAPHS = 50;
const PARAGRAPH = 'words and more words, '.repeat(180);

/** An answer's messages as the host sends them: the turn and its empty answer, the paragraphs, the end. */
function answerMessages(n, paragraphs) {
  const turn = { id: `t${n}`, status: 'running', startedAt: n, checkpointId: `cp${n}` };
  const events = (list) => ({ type: 'thread_events', chatId: CHAT_ID, events: list });
  const entry = { kind: 'agent', id: `a${n}`, turnId: turn.id, text: '', attachments: [] };
  return [
    events([
      { type: 'turn_started', turn },
      { type: 'entry_added', entry },
    ]),
    ...Array.from({ length: paragraphs }, (_, i) =>
      events([{ type: 'text_appended', entryId: entry.id, text: `Paragraph ${i}: ${PARAGRAPH}\n\n` }]),
    ),
    events([
      { type: 'turn_ended', turn: { ...turn, status: 'completed', stopReason: 'end_turn', endedAt: n + 1 } },
    ]),
  ];
}

/** The markdown worker's session id, once the page's session has attached to it. */
function workerSession(cdp) {
  return new Promise((resolve) => {
    cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
      if (targetInfo.type === 'worker') {
        resolve(sessionId);
      }
    });
  });
}

/** Sends `method` to the worker through the page's session; resolves its result. */
function inWorker(cdp, sessionId, method) {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const onMessage = ({ message }) => {
      const answer = JSON.parse(message);
      if (answer.id === id) {
        cdp.off('Target.receivedMessageFromTarget', onMessage);
        resolve(answer.result);
      }
    };
    cdp.on('Target.receivedMessageFromTarget', onMessage);
    void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
  });
}

/** The page's and the worker's JS heap in use after a collection each (bytes). */
async function heaps(cdp, worker) {
  await cdp.send('HeapProfiler.collectGarbage');
  const page = (await cdp.send('Runtime.getHeapUsage')).usedSize;
  await inWorker(cdp, worker, 'HeapProfiler.enable');
  await inWorker(cdp, worker, 'HeapProfiler.collectGarbage');
  return { page, worker: (await inWorker(cdp, worker, 'Runtime.getHeapUsage')).usedSize };
}

await withProbePage(async ({ page, cdp }) => {
  const attached = workerSession(cdp);
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const worker = await attached;
  await page.evaluate((empty) => window.__step(empty), viewWith([], []));
  // The code warmed first (a short answer streamed and finished), so the heaps count what the answer leaves.
  await stepAll(page, answerMessages(1, 5));
  const before = await heaps(cdp, worker);
  await stepAll(page, answerMessages(2, PARAGRAPHS));
  const after = await heaps(cdp, worker);
  const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;
  const answer = PARAGRAPHS * (PARAGRAPH.length + 16);
  console.log(`a finished answer of ${kb(answer)}, streamed in ${PARAGRAPHS} messages, its turn ended:`);
  console.log(`  the page's JS heap grew ${kb(after.page - before.page)}`);
  console.log(`  the markdown worker's JS heap grew ${kb(after.worker - before.worker)}`);
});
