/** The active chat: its transcript, and turns sent to it (waited for, or left running). */
import { strict as assert } from 'node:assert';
import type { AcpAgentsApi } from '../../../src/extension';
import type { ThreadEntryMessage, ThreadSnapshotMessage, TurnMessage } from '../../../src/protocol';
import { eventually } from './waits';

export function activeThread(api: AcpAgentsApi): ThreadSnapshotMessage {
  const chat = api.chat.viewState().chat;
  assert.ok(chat, 'no chat is active');
  return chat.thread;
}

export function activeChatId(api: AcpAgentsApi): string {
  const chat = api.chat.viewState().chat;
  assert.ok(chat, 'no chat is active');
  return chat.chatId;
}

export function lastTurn(api: AcpAgentsApi): TurnMessage {
  const turn = activeThread(api).turns.at(-1);
  assert.ok(turn, 'the active chat has no turn');
  return turn;
}

export function entriesOf(api: AcpAgentsApi, turnId: string): ThreadEntryMessage[] {
  return activeThread(api).entries.filter((entry) => entry.turnId === turnId);
}

/** Everything the agent said in a turn (its message entries, joined). */
export function replyOf(api: AcpAgentsApi, turnId: string): string {
  return entriesOf(api, turnId)
    .flatMap((entry) => (entry.kind === 'agent' ? [entry.text] : []))
    .join('');
}

/** The active chat's entries as [kind, text] pairs (a tool call shows its title). */
export function transcript(api: AcpAgentsApi): Array<[string, string]> {
  return activeThread(api).entries.map((entry) => [
    entry.kind,
    entry.kind === 'tool_call' ? entry.title : entry.text,
  ]);
}

/** The tool call entries of a turn. */
export function toolCallsOf(
  api: AcpAgentsApi,
  turnId: string,
): Extract<ThreadEntryMessage, { kind: 'tool_call' }>[] {
  return entriesOf(api, turnId).flatMap((entry) => (entry.kind === 'tool_call' ? [entry] : []));
}

export interface TurnResult {
  readonly turn: TurnMessage;
  readonly reply: string;
}

/** Sends `text` to the active chat, waits for the turn to end, and returns it with the agent's reply. */
export async function ask(api: AcpAgentsApi, text: string): Promise<TurnResult> {
  const chatId = activeChatId(api);
  const before = activeThread(api).turns.length;
  await api.chat.send(text);
  assert.equal(activeChatId(api), chatId, 'the active chat changed during the turn');
  const turns = activeThread(api).turns;
  assert.equal(turns.length, before + 1, `"${text}" did not start exactly one turn`);
  const turn = turns.at(-1)!;
  assert.notEqual(turn.status, 'running', `the turn for "${text}" is still running after send() resolved`);
  return { turn, reply: replyOf(api, turn.id) };
}

/** A turn started with `begin`: its id once running, and `done` (the send) to await later. */
export interface RunningTurn {
  readonly turnId: string;
  readonly done: Promise<TurnResult>;
}

/** Sends `text` without waiting for the turn to end; resolves once the turn runs. */
export async function begin(api: AcpAgentsApi, text: string): Promise<RunningTurn> {
  const chatId = activeChatId(api);
  const before = activeThread(api).turns.length;
  const sent = api.chat.send(text);
  let failure: { error: unknown } | undefined;
  sent.catch((error: unknown) => (failure = { error })); // also awaited through `done`
  const started = await eventually(`the turn for "${text}" to start`, () => {
    const turns = activeThread(api).turns;
    return turns.length > before ? { turnId: turns[before]!.id } : failure;
  });
  if (!('turnId' in started)) {
    throw started.error; // the send failed before any turn started
  }
  const { turnId } = started;
  const done = sent.then((): TurnResult => {
    if (activeChatId(api) !== chatId) {
      throw new Error('the active chat changed before the turn was read; switch back first');
    }
    const turn = activeThread(api).turns.find((t) => t.id === turnId)!;
    return { turn, reply: replyOf(api, turnId) };
  });
  done.catch(() => {});
  return { turnId, done };
}

/** Starts a new, empty chat with the default (demo) agent and waits until it is connected. */
export async function freshChat(api: AcpAgentsApi): Promise<string> {
  await api.chat.newChat();
  const view = api.chat.viewState();
  assert.ok(view.chat, 'newChat left no active chat');
  assert.equal(view.chat.thread.entries.length, 0, 'the new chat is not empty');
  return view.chat.chatId;
}
