/** The dialog seam (`UserPrompts`): scripted answers to the extension's questions, and a record of them. */
import type { AcpAgentsApi } from '../../../src/extension';
import type { UserPrompts } from '../../../src/vscode/userPrompts';
import { eventually } from './waits';

export type QuestionKind = 'modal' | 'notify' | 'secret' | 'text';

/** One question the extension asked through the seam. */
export interface Question {
  readonly kind: QuestionKind;
  readonly message: string;
  readonly detail?: string;
  readonly choices: readonly string[];
  /** The input box's title, when it has one. */
  readonly title?: string;
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

  /** Queues answers for the next questions of `kind`, in order. */
  answer(kind: QuestionKind, ...answers: Answer[]): this {
    this.queues[kind].push(...answers);
    return this;
  }

  /** Queues answers for the next modal questions, in order (likewise for the other kinds). */
  readonly answerModal = (...answers: Answer[]): this => this.answer('modal', ...answers);
  readonly answerNotify = (...answers: Answer[]): this => this.answer('notify', ...answers);
  readonly answerText = (...answers: Answer[]): this => this.answer('text', ...answers);
  readonly answerSecret = (...answers: Answer[]): this => this.answer('secret', ...answers);

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

  text(prompt: string, placeholder: string, title?: string): Promise<string | undefined> {
    return this.ask({
      kind: 'text',
      message: prompt,
      detail: placeholder,
      choices: [],
      ...(title === undefined ? {} : { title }),
    });
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
