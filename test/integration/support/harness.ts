/**
 * Shared helpers for the integration suites: the extension's API, scripted answers for its dialogs
 * (the `UserPrompts` seam), bounded polling, the active chat's transcript, settings that are restored
 * afterwards, and temporary files inside the sample workspace.
 *
 * Every suite is bundled on its own (scripts/testIntegration.mjs), so this module's state is per suite.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../../src/extension';
import type { ThreadEntryMessage, ThreadSnapshotMessage, TurnMessage } from '../../../src/protocol';
import type { UserPrompts } from '../../../src/vscode/userPrompts';

export const EXTENSION_ID = 'acp-agents.acp-agents';
export const DEMO_AGENT_ID = 'demo';
/** What the demo agent calls itself (`agentInfo.title`). */
export const DEMO_AGENT_NAME = 'Demo agent (offline)';

/** The extension's API (activating it when needed). */
export async function getApi(): Promise<AcpAgentsApi> {
  const extension = vscode.extensions.getExtension<AcpAgentsApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  const api = await extension.activate();
  assert.ok(api?.chat, 'activate() returned no API');
  await api.chat.restored;
  return api;
}

/** The sample workspace folder (test/fixtures/workspace). */
export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open');
  return folder.uri.fsPath;
}

/**
 * Polls `probe` every 50 ms until it returns something other than undefined/false, and returns that;
 * throws "timed out waiting for <what>" (with the last probe error, if any) after `timeoutMs`.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) {
        return value;
      }
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${detail}`);
    }
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------------------------
// The dialog seam

export type QuestionKind = 'modal' | 'notify' | 'secret' | 'text';

/** One question the extension asked through the seam. */
export interface Question {
  readonly kind: QuestionKind;
  readonly message: string;
  readonly detail?: string;
  readonly choices: readonly string[];
}

/** A scripted answer: a label (undefined = dismissed), or a function computing one (may wait). */
export type Answer =
  string | undefined | ((question: Question) => string | undefined | Promise<string | undefined>);

/**
 * Answers the extension's questions from queues the test fills, and records every question asked.
 * A modal/text/secret question with no answer queued is dismissed (and still recorded, so tests see it).
 * A notification waits until the question is settled elsewhere (its abort signal) unless answered.
 */
export class ScriptedPrompts implements UserPrompts {
  readonly asked: Question[] = [];
  private readonly queues: Record<QuestionKind, Answer[]> = { modal: [], notify: [], secret: [], text: [] };

  /** Queues answers for the next modal questions, in order. */
  answerModal(...answers: Answer[]): this {
    this.queues.modal.push(...answers);
    return this;
  }

  answerNotify(...answers: Answer[]): this {
    this.queues.notify.push(...answers);
    return this;
  }

  answerText(...answers: Answer[]): this {
    this.queues.text.push(...answers);
    return this;
  }

  answerSecret(...answers: Answer[]): this {
    this.queues.secret.push(...answers);
    return this;
  }

  /** The questions of one kind asked so far. */
  questions(kind: QuestionKind): Question[] {
    return this.asked.filter((question) => question.kind === kind);
  }

  /** Waits until `count` questions of `kind` were asked. */
  async waitFor(kind: QuestionKind, count = 1, timeoutMs = 20_000): Promise<Question[]> {
    return eventually(
      `${count} ${kind} question(s) (asked so far: ${JSON.stringify(this.asked)})`,
      () => this.questions(kind).length >= count && this.questions(kind),
      timeoutMs,
    );
  }

  modal(
    message: string,
    detail: string | undefined,
    choices: readonly string[],
  ): Promise<string | undefined> {
    return this.ask({
      kind: 'modal',
      message,
      ...(detail === undefined ? {} : { detail }),
      choices: [...choices],
    });
  }

  notify(message: string, choices: readonly string[], signal?: AbortSignal): Promise<string | undefined> {
    const question: Question = { kind: 'notify', message, choices: [...choices] };
    if (this.queues.notify.length > 0) {
      return this.ask(question);
    }
    this.record(question);
    // Like a notification nobody clicks: settles (undefined) only when the question is settled elsewhere.
    return new Promise((resolve) => {
      if (signal?.aborted) {
        resolve(undefined);
      }
      signal?.addEventListener('abort', () => resolve(undefined), { once: true });
    });
  }

  secret(prompt: string): Promise<string | undefined> {
    return this.ask({ kind: 'secret', message: prompt, choices: [] });
  }

  text(prompt: string, placeholder: string): Promise<string | undefined> {
    return this.ask({ kind: 'text', message: prompt, detail: placeholder, choices: [] });
  }

  private async ask(question: Question): Promise<string | undefined> {
    this.record(question);
    const next = this.queues[question.kind].shift();
    return typeof next === 'function' ? next(question) : next;
  }

  private record(question: Question): void {
    this.asked.push(question);
  }
}

/** Installs scripted prompts on the extension's seam; `restore()` puts the previous ones back. */
export function installPrompts(api: AcpAgentsApi): ScriptedPrompts & { restore(): void } {
  const previous = api.prompts.current;
  const scripted = new ScriptedPrompts();
  api.prompts.current = scripted;
  return Object.assign(scripted, {
    restore: () => {
      if (api.prompts.current === scripted) {
        api.prompts.current = previous;
      }
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The active chat's transcript

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

// ---------------------------------------------------------------------------------------------
// Settings

/**
 * Changes settings of one section (default `acpAgents`) at user level — the run's temporary profile, so
 * nothing in the repository changes — and restores them.
 */
export class Settings {
  private readonly saved = new Map<string, unknown>();

  constructor(private readonly section = 'acpAgents') {}

  async set(key: string, value: unknown): Promise<void> {
    const config = vscode.workspace.getConfiguration(this.section);
    if (!this.saved.has(key)) {
      this.saved.set(key, config.inspect(key)?.globalValue);
    }
    await config.update(key, value, vscode.ConfigurationTarget.Global);
  }

  async restore(): Promise<void> {
    const config = vscode.workspace.getConfiguration(this.section);
    for (const [key, value] of this.saved) {
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    }
    this.saved.clear();
  }
}

// ---------------------------------------------------------------------------------------------
// Files and editors

/** A fresh folder inside the sample workspace, removed by `dispose()`. */
export class TempFolder {
  readonly path: string;

  constructor(name: string) {
    this.path = path.join(workspaceRoot(), `.it-${name}-${process.pid}-${Date.now().toString(36)}`);
    mkdirSync(this.path, { recursive: true });
  }

  file(name: string): string {
    return path.join(this.path, name);
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/** Reverts every dirty document (no "save?" dialog can block the run) and closes all editors. */
export async function closeAllEditors(): Promise<void> {
  const dirty = (): vscode.TextDocument[] =>
    vscode.workspace.textDocuments.filter((doc) => doc.isDirty && doc.uri.scheme === 'file');
  for (const document of dirty()) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await eventually(
    `unsaved documents to be reverted (${dirty()
      .map((doc) => doc.uri.fsPath)
      .join(', ')})`,
    () => dirty().length === 0,
    5_000,
  );
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Every open tab, across groups. */
export function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

/** Diff tabs whose proposed side is in the extension's `acp-proposed` scheme. */
export function proposalDiffTabs(): Array<vscode.Tab & { input: vscode.TabInputTextDiff }> {
  return allTabs().filter(
    (tab): tab is vscode.Tab & { input: vscode.TabInputTextDiff } =>
      tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'acp-proposed',
  );
}

// ---------------------------------------------------------------------------------------------
// The chat view

/** Opens the ACP Agents sidebar with the chat view, so permission requests are answered inline. */
export async function showChatView(): Promise<void> {
  await vscode.commands.executeCommand('acpAgents.chat.focus');
  // The view's webview is live, said `ready`, and VS Code told the extension it is visible (the
  // permission port reads the same flag).
  await eventually('the chat webview to say ready and be visible', () =>
    getApi().then((api) => api.chat.readyViewCount > 0 && api.sidebar.isVisible),
  );
}

/** Hides the sidebar (and with it the chat view), so permission requests become modal dialogs. */
export async function hideChatView(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await eventually('the chat view to be hidden', () => getApi().then((api) => !api.sidebar.isVisible));
}

// ---------------------------------------------------------------------------------------------
// Agent processes

/** Pids of the demo agent processes the extension host started (children running dist/demo-agent.js). */
export function demoAgentPids(): number[] {
  const listing = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .filter(([, , ppid, args]) => Number(ppid) === process.pid && /demo-agent\.js\s*$/.test(args ?? ''))
    .map(([, pid]) => Number(pid));
}
