import type * as acp from '@agentclientprotocol/sdk';
import type { SignInMethod } from '../../../core/connection/authMethods';
import type { ErrorDetails } from '../../../core/thread/threadTypes';
import type { AgentDefinition } from '../../../chat/agentSettings';

/*
 * What the agent doctor finds out, apart from how: the checks (`agentDoctor.ts`) produce it and the
 * report (`doctorReport.ts`) renders it, so neither imports the other's types.
 */

/** Where an agent in the report comes from. */
export type AgentOrigin = 'configured' | 'registry' | 'detected' | 'preset' | 'built-in';

/** One thing wrong with an agent, and what the user can do about it. */
export interface DoctorProblem {
  readonly problem: string;
  readonly fix: string;
}

/** What `initialize` told us. */
export interface InitializeFindings {
  readonly ms: number;
  readonly protocolVersion: number;
  readonly agentName?: string;
  readonly agentVersion?: string;
  readonly capabilities: acp.AgentCapabilities;
  readonly signInMethods: readonly SignInMethod[];
}

/** What the agent sent with a failure (its JSON-RPC code, its `data`), when it sent more than a message. */
export interface AgentSaid {
  readonly details?: ErrorDetails;
}

export type SessionFindings =
  | { readonly ok: true; readonly ms: number }
  | ({ readonly ok: false; readonly signedIn: false; readonly message: string } & AgentSaid)
  | ({ readonly ok: false; readonly signedIn: undefined; readonly message: string } & AgentSaid);

/** Everything the doctor found out about one agent. */
export interface AgentDiagnosis {
  readonly agent: AgentDefinition;
  readonly origin: AgentOrigin;
  /** Where the command was found on PATH; undefined when it was not. */
  readonly foundAt?: string;
  /** First line of `<command> --version`, when the agent has such a flag. */
  readonly version?: string;
  /** `node --version` for agents that run on Node. */
  readonly nodeVersion?: string;
  readonly initialize?: InitializeFindings;
  readonly session?: SessionFindings;
  /** Last lines the agent wrote to stderr, when it failed. */
  readonly stderrTail?: readonly string[];
  /** The agent's error when starting it failed (initialize), when it sent a code or data. */
  readonly startError?: ErrorDetails;
  readonly problems: readonly DoctorProblem[];
  /** How long the whole check of this agent took. */
  readonly ms: number;
  /** Why the agent was not checked at all (nothing was started): Restricted Mode. */
  readonly notChecked?: string;
}
