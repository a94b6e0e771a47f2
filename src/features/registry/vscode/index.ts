/**
 * The ACP Registry and Add Agent as a bundle of their own (`dist/registry.js`, built by esbuild.mjs):
 * loaded by the first registry command or the doctor's advice on missing agents, not with the chat.
 */
import type * as vscode from 'vscode';
import type { KnownAgent } from '../../../chat/agentPresets';
import { knownAgentsOf } from '../chat/agentChoices';
import { platformKey } from '../core/registryFormat';
import { defaultAddAgentPrompts } from './addAgentCommands';
import type { AddAgentPrompts } from './addAgentPicker';
import { RegistryService } from './registryService';

export { ADD_AGENT_COMMANDS, addAgentCommands } from './addAgentCommands';
export type { AddAgentPrompts } from './addAgentPicker';
export type { RegistryService } from './registryService';

/** The registry service and Add Agent's questions (tests install scripted answers in `prompts.current`). */
export interface Registry {
  readonly service: RegistryService;
  readonly prompts: { current: AddAgentPrompts };
  /** The registry's agents for this platform (the doctor's advice on a missing one). */
  knownAgents(): Promise<KnownAgent[]>;
}

export function createRegistry(
  extensionUri: vscode.Uri,
  storage: vscode.Uri,
  log: vscode.LogOutputChannel,
): Registry {
  const service = new RegistryService(extensionUri, storage, log);
  return {
    service,
    prompts: defaultAddAgentPrompts(),
    knownAgents: async () =>
      knownAgentsOf((await service.load()).agents, platformKey(process.platform, process.arch)),
  };
}
