import type { AgentClient } from '../core/connection/agentClient';
import { signInMethodsOf, type SignInMethod } from '../core/connection/authMethods';
import type { AgentDefinition } from './agentSettings';

/** What signing in needs from the editor. */
export interface SignInPort {
  /** Runs a login command in a terminal the user can see and type in; resolves when it exits. */
  runInTerminal(
    title: string,
    command: string,
    args: readonly string[],
    env: Readonly<Record<string, string>>,
  ): Promise<void>;
  /** Asks for a secret (an API key); undefined when dismissed. */
  askSecret(prompt: string): Promise<string | undefined>;
  /** Keeps a secret for an agent (SecretStorage in VS Code), passed to it as an environment variable. */
  storeSecret(agentId: string, variable: string, value: string): Promise<void>;
  /** The environment variables kept for an agent. */
  secretsFor(agentId: string): Promise<Record<string, string>>;
}

/** After signing in: the session can be retried as is, or the agent must restart to see new credentials. */
export type SignInOutcome = 'authenticated' | 'restart' | 'dismissed';

/**
 * Signs in with one of the agent's methods: `authenticate` for agent-handled methods, a terminal
 * login for terminal methods (then a restart, so the agent reads the new credentials), a key kept
 * in secret storage for environment-variable methods (then a restart with the key set).
 */
export async function signIn(
  methodId: string,
  client: AgentClient,
  agent: AgentDefinition,
  host: SignInPort | undefined,
): Promise<SignInOutcome> {
  const method: SignInMethod = signInMethodsOf(client.info.authMethods).find((m) => m.id === methodId) ?? {
    kind: 'agent',
    id: methodId,
    name: methodId,
  };
  switch (method.kind) {
    case 'agent':
      await client.authenticate(method.id);
      return 'authenticated';
    case 'terminal': {
      if (!host) {
        throw new Error(`Signing in with "${method.name}" needs a terminal.`);
      }
      // ACP's terminal auth: the agent's own program with the method's arguments instead of the ACP ones.
      await host.runInTerminal(method.name, method.command ?? agent.command, method.args, {
        ...agent.env,
        ...method.env,
      });
      return 'restart';
    }
    case 'env_var': {
      if (!host) {
        throw new Error(`Signing in with "${method.name}" needs secret storage.`);
      }
      for (const variable of method.variables) {
        const value = await host.askSecret(`${agent.label}: ${variable.label ?? variable.name}`);
        if (value === undefined || value === '') {
          return 'dismissed';
        }
        await host.storeSecret(agent.id, variable.name, value);
      }
      return 'restart';
    }
    default: {
      const unknown: never = method;
      throw new Error(`Unknown sign-in method ${JSON.stringify(unknown)}`);
    }
  }
}
