import * as vscode from 'vscode';

/**
 * The questions the extension asks a person. A seam: the integration tests answer through it
 * (a scripted implementation installed via the extension's API) instead of skipping dialogs.
 */
export interface UserPrompts {
  /** A modal question. Resolves with the chosen label, or undefined when dismissed. */
  modal(message: string, detail: string | undefined, choices: readonly string[]): Promise<string | undefined>;
  /** A notification with buttons that does not block the editor (so a diff can be looked at). */
  notify(message: string, choices: readonly string[], signal?: AbortSignal): Promise<string | undefined>;
  /** Asks for a secret (an API key); undefined when dismissed. */
  secret(prompt: string): Promise<string | undefined>;
  /** Asks for a line of text (the prompt for "Send to Copilot"); undefined when dismissed. */
  text(prompt: string, placeholder: string, title?: string): Promise<string | undefined>;
}

export class VsCodeUserPrompts implements UserPrompts {
  async modal(
    message: string,
    detail: string | undefined,
    choices: readonly string[],
  ): Promise<string | undefined> {
    return vscode.window.showWarningMessage(
      message,
      { modal: true, ...(detail ? { detail } : {}) },
      ...choices,
    );
  }

  async notify(
    message: string,
    choices: readonly string[],
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    // A notification cannot be closed from code; when the question is settled elsewhere, stop waiting.
    const answer = vscode.window.showInformationMessage(message, ...choices);
    if (!signal) {
      return answer;
    }
    return Promise.race([
      answer,
      new Promise<undefined>((resolve) =>
        signal.addEventListener('abort', () => resolve(undefined), { once: true }),
      ),
    ]);
  }

  async secret(prompt: string): Promise<string | undefined> {
    return vscode.window.showInputBox({ prompt, password: true, ignoreFocusOut: true });
  }

  async text(prompt: string, placeholder: string, title?: string): Promise<string | undefined> {
    return vscode.window.showInputBox({
      prompt,
      placeHolder: placeholder,
      ignoreFocusOut: true,
      ...(title === undefined ? {} : { title }),
    });
  }
}

/** The seam itself: delegates to the real prompts until a test swaps in its own. */
export class SwappablePrompts implements UserPrompts {
  constructor(public current: UserPrompts) {}
  modal(
    message: string,
    detail: string | undefined,
    choices: readonly string[],
  ): Promise<string | undefined> {
    return this.current.modal(message, detail, choices);
  }
  notify(message: string, choices: readonly string[], signal?: AbortSignal): Promise<string | undefined> {
    return this.current.notify(message, choices, signal);
  }
  secret(prompt: string): Promise<string | undefined> {
    return this.current.secret(prompt);
  }
  text(prompt: string, placeholder: string, title?: string): Promise<string | undefined> {
    return this.current.text(prompt, placeholder, title);
  }
}
