import * as z from 'zod/mini';
import * as vscode from 'vscode';
import type { SignInPort } from '../chat/signIn';
import type { UserPrompts } from './userPrompts';
import { secretValues } from '../core/secrets/secrets';

const SecretEnv = z.record(z.string(), z.string());

/** Terminal logins in a real VS Code terminal, API keys in SecretStorage (never in settings). */
export class VsCodeSignIn implements SignInPort {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly prompts: UserPrompts,
  ) {}

  runInTerminal(
    title: string,
    command: string,
    args: readonly string[],
    env: Readonly<Record<string, string>>,
  ): Promise<void> {
    // The agent's login command is a program from settings: never in Restricted Mode.
    if (!vscode.workspace.isTrusted) {
      return Promise.reject(new Error('This workspace is not trusted: no sign-in command is run here.'));
    }
    const terminal = vscode.window.createTerminal({
      name: `Sign in: ${title}`,
      shellPath: command,
      shellArgs: [...args],
      env: { ...env },
    });
    terminal.show();
    return new Promise((resolve) => {
      const subscription = vscode.window.onDidCloseTerminal((closed) => {
        if (closed === terminal) {
          subscription.dispose();
          resolve();
        }
      });
    });
  }

  askSecret(prompt: string): Promise<string | undefined> {
    return this.prompts.secret(prompt);
  }

  async storeSecret(agentId: string, variable: string, value: string): Promise<void> {
    const current = await this.secretsFor(agentId);
    secretValues.add(variable, value);
    await this.secrets.store(key(agentId), JSON.stringify({ ...current, [variable]: value }));
  }

  async secretsFor(agentId: string): Promise<Record<string, string>> {
    const raw = await this.secrets.get(key(agentId));
    if (!raw) {
      return {};
    }
    try {
      const parsed = SecretEnv.safeParse(JSON.parse(raw));
      if (!parsed.success) {
        return {};
      }
      // The agent gets them; everything we write down or show has them scrubbed.
      for (const [variable, value] of Object.entries(parsed.data)) {
        secretValues.add(variable, value);
      }
      return parsed.data;
    } catch {
      return {};
    }
  }
}

function key(agentId: string): string {
  return `acpAgents.env.${agentId}`;
}
