import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ChatPage } from './support/chatPage';
import { appended, ended, events, message, snapshot, turn } from './support/builders';
import { renderMarkdown } from '../../webview/markdown/renderer';
import { streamedAndOnce } from './support/streams';
import { useChatPages } from './support/suite';

/**
 * A stream of every kind of block, cut at awkward places: paragraphs growing by plain words, emphasis
 * and links split, a list, a table, fences of two languages opened and closed across chunks.
 */
const TEXT = [
  'Intro words and more words, then *emph',
  'asis* and a link to https://example.com/pa',
  'th here.\n\n- one\n- tw',
  'o\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```ts\nconst a',
  ' = 1;\n',
  'const b = 2;\n``',
  '`\n\nMiddle paragraph grows',
  ' by plain words',
  ' and more.\n\n```py\nprint(1)\n',
  'print(2)\n',
  '```\n\n## Heading\n\nLast &amp',
  '; words `code',
  '` end.',
];
const MIDDLE = 6;

/** Worker instances the page makes, kept in `window.__workers` (an init script: before the page's own). */
async function captureWorkers(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const Original = window.Worker;
    window.__workers = [];
    window.Worker = class extends Original {
      constructor(url, options) {
        super(url, options);
        window.__workers.push(this);
      }
    };
  })()`);
}

async function waitForWorker(page: ChatPage, state: 'ready' | 'unavailable'): Promise<void> {
  await page.page.waitForFunction((expected) => window.__markdown.worker === expected, state);
}

const settled = (page: ChatPage): Promise<number> => page.page.evaluate(() => window.__markdown.settled);

describe('webview: streamed markdown in the worker', () => {
  const chat = useChatPages();

  it('is planned in the worker, and shows what a render once shows after every chunk', async () => {
    const page = await chat.open();
    const before = await settled(page);
    const { streamed, once } = await streamedAndOnce(page, TEXT);
    assert.deepEqual(streamed, once);
    assert.equal(await settled(page), before + TEXT.length, 'every chunk was answered by the worker');
    page.assertClean();
  });

  it('marks the page busy while the worker holds an answer, for whoever must read it whole', async () => {
    const page = await chat.open();
    await waitForWorker(page, 'ready');
    // A running turn's answer, streaming: its chunks are planned in the worker.
    await page.host(snapshot({ entries: [message('agent', 'w1', 'An answer')], turns: [turn('t1')] }));
    const seen = await page.page.evaluate(
      (data) =>
        new Promise<{ during: string | null; after: string | null }>((resolve) => {
          window.addEventListener(
            'message',
            // After the view's own frame (requested first): its text went to the worker, not yet back.
            () =>
              requestAnimationFrame(() => {
                const during = document.documentElement.dataset.markdown ?? null;
                window.addEventListener(
                  'acp-markdown-settled',
                  () => resolve({ during, after: document.documentElement.dataset.markdown ?? null }),
                  { once: true },
                );
              }),
            { once: true },
          );
          window.postMessage(data, '*');
        }),
      events(appended('w1', ' with *emphasis* and `code`.')),
    );
    assert.deepEqual(seen, { during: 'busy', after: null });
    page.assertClean();
  });

  it('takes over a stream the page started planning, from where the page left off', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const page = await chat.open({
      beforeLoad: async (page) => {
        await page.route('**/dist/markdownWorker.js', async (route) => {
          await held;
          await route.continue();
        });
      },
    });
    assert.equal(await page.page.evaluate(() => window.__markdown.worker), 'starting');
    const { streamed, once } = await streamedAndOnce(page, TEXT, async (index) => {
      if (index === MIDDLE) {
        assert.equal(await settled(page), 0, 'the first half was planned on the page');
        release();
        await waitForWorker(page, 'ready');
      }
    });
    assert.deepEqual(streamed, once);
    assert.equal(await settled(page), TEXT.length - MIDDLE, 'the second half was planned in the worker');
    page.assertClean();
  });

  it('plans the rest on the page when the worker fails, with a chunk still in the worker', async () => {
    const page = await chat.open({ beforeLoad: captureWorkers });
    await waitForWorker(page, 'ready');
    const { streamed, once } = await streamedAndOnce(page, TEXT, async (index) => {
      if (index === MIDDLE) {
        // The next chunk goes to the worker in the view's frame; the worker fails right after, before it answers.
        await page.page.evaluate(() => {
          const w = window as unknown as { __workers: Worker[]; __failedBusy?: boolean };
          window.addEventListener(
            'message',
            () =>
              requestAnimationFrame(() => {
                w.__failedBusy = window.__markdown.busy;
                w.__workers[0]?.dispatchEvent(new ErrorEvent('error', { message: 'out of memory' }));
              }),
            { once: true },
          );
        });
      }
    });
    assert.equal(
      await page.page.evaluate(() => (window as unknown as { __failedBusy?: boolean }).__failedBusy),
      true,
      'the chunk was in the worker when it failed',
    );
    assert.deepEqual(streamed, once);
    assert.equal(await page.page.evaluate(() => window.__markdown.worker), 'unavailable');
    assert.equal(
      await page.page.evaluate(() => window.__markdown.busy),
      false,
      'nothing waits for the worker',
    );
    page.assertClean();
  });

  it('plans a stream on the page again when the worker loses it, and keeps the others in the worker', async () => {
    const page = await chat.open({ beforeLoad: captureWorkers });
    await waitForWorker(page, 'ready');
    const { streamed, once } = await streamedAndOnce(page, TEXT, async (index) => {
      if (index === MIDDLE) {
        // The worker forgets the stream (as after a planning error): its next answer says so.
        await page.page.evaluate(() => {
          const worker = (window as unknown as { __workers: Worker[] }).__workers[0] as Worker;
          worker.postMessage({ type: 'drop', id: 1 });
        });
      }
    });
    assert.deepEqual(streamed, once);
    assert.equal(await page.page.evaluate(() => window.__markdown.worker), 'ready');
    page.assertClean();
  });
});

/**
 * Records the requests the page sends the worker for its streams in `window.__requests`, and holds them back while
 * `window.__held` is a list (`window.__release()` sends what it holds, in order). What the page's frames cost
 * (`shown`, no stream's) goes straight through.
 */
async function recordRequests(page: ChatPage): Promise<void> {
  await page.page.evaluate(() => {
    const w = window as unknown as {
      __workers: Worker[];
      __requests: { type: string; id: number; end?: boolean }[];
      __held: unknown[] | null;
      __release: () => void;
    };
    const worker = w.__workers[0] as Worker;
    const post = worker.postMessage.bind(worker);
    w.__requests = [];
    w.__held = null;
    w.__release = () => {
      const held = w.__held ?? [];
      w.__held = null;
      held.forEach((request) => post(request));
    };
    worker.postMessage = (request: { type: string; id: number; end?: boolean }) => {
      if (request.type === 'shown') {
        post(request);
        return;
      }
      w.__requests.push(request);
      if (w.__held) {
        w.__held.push(request);
      } else {
        post(request);
      }
    };
  });
}

/** A chat page whose worker runs, its requests recorded (`recordRequests`). */
async function openRecording(chat: ReturnType<typeof useChatPages>): Promise<ChatPage> {
  const page = await chat.open({ beforeLoad: captureWorkers });
  await waitForWorker(page, 'ready');
  await recordRequests(page);
  return page;
}

/** The running turn t1 ends. */
const TURN_ENDED = events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' })));

/** Posts host messages as the host does, a frame each, without waiting for the worker's answers. */
async function postInFrames(page: ChatPage, messages: readonly unknown[]): Promise<void> {
  await page.page.evaluate(async (list) => {
    for (const data of list) {
      window.postMessage(data, '*');
      await new Promise(requestAnimationFrame);
    }
  }, messages);
}

/** The types of the requests `recordRequests` saw for the first stream the page sent the worker, in order. */
async function requestsOfFirstStream(page: ChatPage): Promise<string[]> {
  const requests = await page.page.evaluate(
    () => (window as unknown as { __requests: { type: string; id: number }[] }).__requests,
  );
  const streamId = requests.find((request) => request.type === 'adopt')?.id;
  return requests.filter((request) => request.id === streamId).map((request) => request.type);
}

const shownAnswer = (page: ChatPage): Promise<string> =>
  page.page.locator('[data-entry-id="s"] .markdown').evaluate((root) => root.innerHTML);

/** What the page shows for `text` rendered once (a snapshot holding the whole answer). */
async function renderedOnce(page: ChatPage, text: string): Promise<string> {
  await page.host(snapshot({ entries: [message('agent', 's', text)] }));
  return shownAnswer(page);
}

describe('webview: a finished answer and the markdown worker', () => {
  const chat = useChatPages();

  it('is let go by the worker when its turn ends, and shows what a render once shows', async () => {
    const page = await openRecording(chat);
    const lastAnswers: boolean[] = [];
    await page.page.exposeFunction('__answered', (last: boolean) => lastAnswers.push(last));
    await page.page.evaluate(() => {
      const worker = (window as unknown as { __workers: Worker[] }).__workers[0] as Worker;
      const answered = (window as unknown as { __answered: (last: boolean) => void }).__answered;
      worker.addEventListener('message', (event: MessageEvent<{ type: string; last?: boolean }>) => {
        if (event.data.type === 'ops') {
          answered(event.data.last === true);
        }
      });
    });
    await page.host(snapshot({ entries: [message('agent', 's', '')], turns: [turn('t1')] }));
    for (const chunk of TEXT) {
      await page.host(events(appended('s', chunk)));
    }
    await page.host(TURN_ENDED);
    const ofStream = await requestsOfFirstStream(page);
    assert.equal(ofStream.at(-1), 'finish', `the stream's requests: ${ofStream.join(', ')}`);
    assert.equal(lastAnswers.at(-1), true, 'the worker answered the finish as the stream’s last');
    const shown = await shownAnswer(page);
    assert.equal(shown, await renderedOnce(page, TEXT.join('')));
    page.assertClean();
  });

  it('lets a thought go too when its turn ends', async () => {
    const page = await openRecording(chat);
    // The newest entry of a running turn: open, its text streamed to the worker.
    await page.host(snapshot({ entries: [message('thought', 'th', '')], turns: [turn('t1')] }));
    for (const chunk of TEXT.slice(0, MIDDLE)) {
      await page.host(events(appended('th', chunk)));
    }
    await page.host(TURN_ENDED);
    const ofStream = await requestsOfFirstStream(page);
    assert.ok(ofStream.includes('append'), `the thought streamed in the worker: ${ofStream.join(', ')}`);
    assert.equal(ofStream.at(-1), 'finish', `the stream's requests: ${ofStream.join(', ')}`);
    page.assertClean();
  });

  it('shows an answer changed after its turn ended whole, though the worker answers its stream late', async () => {
    const page = await openRecording(chat);
    await page.host(snapshot({ entries: [message('agent', 's', '')], turns: [turn('t1')] }));
    for (const chunk of TEXT) {
      await page.host(events(appended('s', chunk)));
    }
    // A chunk that finishes blocks and the turn's end reach the worker only after the answer changed again: the
    // page has shown the whole text afresh by then, and what the worker answers for the old stream (those
    // blocks, placed again) must not touch it.
    await page.page.evaluate(() => {
      (window as unknown as { __held: unknown[] | null }).__held = [];
    });
    const last = '\n\nA paragraph that ends the answer.\n\nIts last';
    const later = ' words, sent after the turn ended.';
    await postInFrames(page, [events(appended('s', last)), TURN_ENDED, events(appended('s', later))]);
    const held = await page.page.evaluate(() =>
      ((window as unknown as { __held: { type: string }[] }).__held ?? []).map((request) => request.type),
    );
    assert.deepEqual(held.slice(0, 2), ['append', 'finish'], `held: ${held.join(', ')}`);
    await page.page.evaluate(async () => {
      (window as unknown as { __release: () => void }).__release();
      while (window.__markdown.busy) {
        await new Promise(requestAnimationFrame);
      }
    });
    const shown = await shownAnswer(page);
    assert.equal(shown, await renderedOnce(page, TEXT.join('') + last + later));
    page.assertClean();
  });
});

describe('webview: appends that wait in the markdown worker', () => {
  const chat = useChatPages();

  it('are planned together once the worker is free, and show what a render once shows', async () => {
    const page = await chat.open({ beforeLoad: captureWorkers });
    await waitForWorker(page, 'ready');
    // A long tight list stays the tail: each plan parses all of it again, longer than a frame of the page.
    const items = (from: number, count: number) =>
      Array.from(
        { length: count },
        (_, i) => `- item ${from + i}: check \`file${from + i}.ts\` and **fix** it\n`,
      ).join('');
    const start = items(0, 4000);
    await page.host(snapshot({ entries: [message('agent', 's', start)], turns: [turn('t1')] }));
    const chunks = Array.from({ length: 30 }, (_, i) => items(4000 + i * 20, 20));
    const answered = await page.page.evaluate(
      async ({ messages }) => {
        const worker = (window as unknown as { __workers: Worker[] }).__workers[0] as Worker;
        const counts = { sent: 0, answers: 0, requests: 0 };
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (request: { type: string }) => {
          counts.sent += request.type === 'append' ? 1 : 0;
          post(request);
        };
        worker.addEventListener('message', (event: MessageEvent<{ type: string; requests?: number }>) => {
          if (event.data.type === 'ops') {
            counts.answers++;
            counts.requests += event.data.requests ?? 1; // one, in a protocol without counts
          }
        });
        // One host message a frame, as a fast stream's: the page sends each to the worker in its frame.
        for (const data of messages) {
          window.postMessage(data, '*');
          await new Promise(requestAnimationFrame);
        }
        while (window.__markdown.busy) {
          await new Promise(requestAnimationFrame);
        }
        return counts;
      },
      { messages: chunks.map((chunk) => events(appended('s', chunk))) },
    );
    assert.ok(
      answered.sent >= chunks.length / 2,
      `the page sent ${answered.sent} appends (a frame may take two)`,
    );
    assert.equal(answered.requests, answered.sent, 'every append was answered');
    assert.ok(
      answered.answers < answered.sent / 2,
      `${answered.answers} answers for ${answered.sent} appends`,
    );
    const shown = await page.page.locator('[data-entry-id="s"] .markdown').evaluate((root) => root.innerHTML);
    assert.equal(shown, renderMarkdown(start + chunks.join('')));
    page.assertClean();
  });
});
