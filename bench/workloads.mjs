// Workloads for the webview benchmark: agent-like markdown and long chats, as host messages.

export const CHAT_ID = 'bench-chat';
/** Characters per streamed chunk: 2 MB in 20,000 chunks. */
export const CHUNK_CHARS = 100;
/** Chunks per host message: what the host's batcher coalesces in one frame of a fast stream. */
export const CHUNKS_PER_MESSAGE = 50;
/**
 * The host's pacing of a long answer (src/chat/eventBatcher.ts, LONG_ANSWER_CHARS and
 * LONG_ANSWER_FLUSH_INTERVAL_MS): past this many characters of a turn, a message every 50 ms,
 * three frames' chunks. `BENCH_HOST_PACING=0` streams every message as one frame's, as before it.
 */
export const LONG_ANSWER_CHARS = 32_000;
export const CHUNKS_PER_LONG_MESSAGE = 150;
export const HOST_PACING = process.env.BENCH_HOST_PACING !== '0';
/** How the stream's messages are cut, as the rows say it. */
export const HOST_CADENCE = HOST_PACING
  ? `${CHUNKS_PER_MESSAGE} chunks a message, ${CHUNKS_PER_LONG_MESSAGE} past the first ${LONG_ANSWER_CHARS.toLocaleString('en-US')} characters (the host's pacing of a long answer)`
  : `BENCH_HOST_PACING=0: ${CHUNKS_PER_MESSAGE} chunks a message throughout`;

/**
 * About `bytes` characters of mixed agent markdown: prose with inline code and links, lists,
 * tables, headings and long code blocks (80–200 lines), in a repeating but varied order.
 */
export function mixedMarkdown(bytes) {
  const parts = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    let part;
    switch (i % 7) {
      case 1: {
        const lines = 80 + ((i * 37) % 120);
        part =
          '```ts\n' +
          Array.from(
            { length: lines },
            (_, j) => `export const step${i}_${j} = (input: string): number => input.length * ${j}; // ${j}`,
          ).join('\n') +
          '\n```';
        break;
      }
      case 3:
        part =
          `| file | change | lines |\n| --- | --- | ---: |\n` +
          Array.from(
            { length: 20 },
            (_, j) => `| src/mod${i}/file${j}.ts | renamed \`old${j}\` | ${j * 7} |`,
          ).join('\n');
        break;
      case 5:
        part =
          `### Part ${i}\n\n` +
          Array.from(
            { length: 8 },
            (_, j) =>
              `- check \`item${i}_${j}\` then read [the docs](https://example.com/${i}/${j}) and **verify**`,
          ).join('\n');
        break;
      default:
        part =
          `Paragraph ${i}: the agent explains what it changed and why, with *emphasis*, \`code\` and a link to src/file${i}.ts:${i}. `.repeat(
            4,
          );
    }
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n').slice(0, bytes);
}

/** How many characters of the answer one of `streamMessages`' messages carries. */
export const messageChars = (message) => message.events.reduce((sum, event) => sum + event.text.length, 0);

/**
 * The text cut into chunks of CHUNK_CHARS, grouped into `thread_events` messages as the host paces them,
 * each message's chunks joined into one delta as the host's batcher joins consecutive deltas to one entry
 * (src/chat/coalescedEvents.ts).
 */
export function streamMessages(text) {
  const messages = [];
  for (let at = 0, perMessage = 0; at < text.length; at += perMessage) {
    const long = HOST_PACING && at > LONG_ANSWER_CHARS;
    perMessage = CHUNK_CHARS * (long ? CHUNKS_PER_LONG_MESSAGE : CHUNKS_PER_MESSAGE);
    const events = [{ type: 'text_appended', entryId: 'a1', text: text.slice(at, at + perMessage) }];
    messages.push({ type: 'thread_events', chatId: CHAT_ID, events });
  }
  return messages;
}

/** A snapshot of the demo agent's chat holding `entries` and `turns`. */
export function viewWith(entries, turns) {
  return {
    type: 'snapshot',
    view: {
      agents: [{ id: 'demo', label: 'Demo agent (offline)' }],
      selectedAgentId: 'demo',
      status: { state: 'ready' },
      chat: {
        chatId: CHAT_ID,
        thread: { entries, turns, state: { configOptions: [], commands: [], plan: [] } },
      },
    },
  };
}

/** `snapshot` with one more turn at its end, running and silent: the question sent, no answer yet. */
export function withRunningTurn(snapshot) {
  const { entries, turns, state } = snapshot.view.chat.thread;
  const id = `t${turns.length + 1}`;
  return {
    ...snapshot,
    view: {
      ...snapshot.view,
      chat: {
        ...snapshot.view.chat,
        thread: {
          entries: [
            ...entries,
            { kind: 'user', id: `u-${id}`, turnId: id, text: 'And the next step?', attachments: [] },
          ],
          turns: [...turns, { id, status: 'running', startedAt: turns.length + 1 }],
          state,
        },
      },
    },
  };
}

/** A running turn whose agent message holds `text` (empty: the start of a stream). */
export function streamingSnapshot(text = '') {
  return viewWith(
    [
      { kind: 'user', id: 'u1', turnId: 't1', text: 'Explain everything.', attachments: [] },
      { kind: 'agent', id: 'a1', turnId: 't1', text, attachments: [] },
    ],
    [{ id: 't1', status: 'running', startedAt: 0 }],
  );
}

/**
 * A chat of `turns` finished turns read back from the journal: each a question, an answer with
 * code, a tool call with a diff (about three entries a turn), a checkpoint and a card of three
 * changed files.
 */
export function longChatSnapshot(turns) {
  const entries = [];
  const turnList = [];
  const code = Array.from({ length: 20 }, (_, i) => `  const value${i} = compute(${i});`).join('\n');
  for (let t = 1; t <= turns; t++) {
    const turnId = `t${t}`;
    const file = (name, kind) => ({
      path: `/w/src/${name}`,
      relativePath: `src/${name}`,
      kind,
      added: 4,
      removed: 1,
      decision: 'pending',
    });
    turnList.push({
      id: turnId,
      status: 'completed',
      stopReason: 'end_turn',
      startedAt: t,
      endedAt: t + 1,
      checkpointId: `cp${t}`,
      changes: {
        files: [
          file(`step${t}.ts`, 'modified'),
          file(`step${t}.test.ts`, 'created'),
          file(`old${t}.ts`, 'deleted'),
        ],
        live: false,
        coverage: 'full',
      },
    });
    entries.push({
      kind: 'user',
      id: `u${t}`,
      turnId,
      text: `Question ${t}: why does step ${t} fail?`,
      attachments: [],
    });
    entries.push({
      kind: 'agent',
      id: `a${t}`,
      turnId,
      text: `## Step ${t}\n\nThe failure comes from **step ${t}**: see \`src/step${t}.ts\`.\n\n\`\`\`ts\nfunction step${t}() {\n${code}\n}\n\`\`\`\n\n- first cause\n- second cause\n\nFixed it.`,
      attachments: [],
    });
    entries.push({
      kind: 'tool_call',
      id: `c${t}`,
      turnId,
      toolCallId: `call${t}`,
      title: `Edit src/step${t}.ts`,
      toolKind: 'edit',
      status: 'completed',
      content: [
        {
          type: 'diff',
          path: `/w/src/step${t}.ts`,
          oldText: code,
          newText: code.replace('value3', 'renamed3'),
        },
      ],
      locations: [{ path: `/w/src/step${t}.ts`, line: 4 }],
    });
  }
  return viewWith(entries, turnList);
}
