import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentSettingSchema } from '../../../chat/agentSettings';
import type { ChatController } from '../../../chat/chatController';
import type { AgentCatalog } from '../../../vscode/agentCatalog';
import type { CommandHandlers } from '../../../vscode/lazyBundles';
import { agentChoices, type AgentChoice } from '../chat/agentChoices';
import { installAgent, MissingToolError } from '../chat/installAgent';
import { splitCommandLine, withAgent, withoutAgent, type AgentEntry } from '../chat/userAgents';
import { suggestAgentName } from '../chat/agentNameSuggestion';
import { isNewerVersion, platformKey } from '../core/registryFormat';
import { AddAgentPicker, type AddAgentPrompts } from './addAgentPicker';
import type { RegistryService } from './registryService';

export interface AddAgentDeps {
  readonly registry: RegistryService;
  readonly catalog: AgentCatalog;
  readonly chat: ChatController;
  readonly reveal: () => Promise<void>;
  readonly log: vscode.LogOutputChannel;
  /** The questions asked; tests install scripted answers (see `prompts.current`). */
  readonly prompts: { current: AddAgentPrompts };
}

export { ADD_AGENT_COMMANDS } from './addAgentCommandIds';

/** "ACP: Add Agent…", "ACP: Update Agents", "ACP: Remove Agent…". */
export function addAgentCommands(deps: AddAgentDeps): CommandHandlers {
  const run =
    (name: string, work: (arg?: unknown) => Promise<unknown>) =>
    async (arg?: unknown): Promise<unknown> => {
      try {
        return await work(arg);
      } catch (error) {
        await reportFailure(name, error, deps.log);
        return undefined;
      }
    };
  return {
    'acpAgents.addAgent': run('Add Agent', (registryId) =>
      addAgent(deps, typeof registryId === 'string' ? registryId : undefined),
    ),
    'acpAgents.updateAgents': run('Update Agents', () => updateAgents(deps)),
    'acpAgents.removeAgent': run('Remove Agent', () => removeAgent(deps)),
  };
}

export function defaultAddAgentPrompts(): { current: AddAgentPrompts } {
  return { current: new AddAgentPicker() };
}

/**
 * Add Agent: the picker, or — given a registry id (Set Up Copilot) — that agent at once. Resolves
 * with the added agent's name (undefined when nothing was added).
 */
async function addAgent(deps: AddAgentDeps, registryId?: string): Promise<string | undefined> {
  const platform = platformKey(process.platform, process.arch);
  const choices = deps.registry.load(true).then((registry) => ({
    registry,
    choices: agentChoices(registry.agents, userAgents(), platform, process.env),
  }));
  const wanted = registryId
    ? (await choices).choices.find((choice) => choice.agent.id === registryId)
    : undefined;
  if (wanted) {
    return install(deps, wanted);
  }
  const picked = await deps.prompts.current.pickAgent(choices);
  if (!picked) {
    return;
  }
  return picked === 'custom' ? addCustomAgent(deps) : install(deps, picked);
}

async function install(deps: AddAgentDeps, choice: AgentChoice): Promise<string> {
  const { agent, distribution } = choice;
  if (!distribution) {
    throw new Error(`${agent.name} has no download for this platform (${process.platform} ${process.arch}).`);
  }
  const installed = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Installing ${agent.name} ${agent.version}`,
      cancellable: true,
    },
    (progress, token) => {
      const abort = new AbortController();
      const subscription = token.onCancellationRequested(() => abort.abort());
      let reported = 0;
      return installAgent(agent, distribution, {
        agentsDir: deps.registry.agentsDir,
        env: process.env,
        signal: abort.signal,
        allowHttpFrom: deps.registry.allowHttpFrom,
        progress: (message, fraction) => {
          const increment = fraction === undefined ? undefined : Math.max(0, fraction * 100 - reported);
          reported += increment ?? 0;
          progress.report({ message, ...(increment ? { increment } : {}) });
        },
      }).finally(() => subscription.dispose());
    },
  );
  const { checksum, ...entry } = installed;
  deps.log.info(`Added ${agent.name} ${agent.version}: ${[entry.command, ...entry.args].join(' ')}`);
  if (checksum === 'none' && distribution.kind === 'binary') {
    // Said, not asked: today's registry gives no checksums at all; https is what vouched for the bytes.
    const host = new URL(distribution.spec.archive).host;
    const message = `${agent.name} ${agent.version} was downloaded from ${host}; the ACP Registry gives no checksum to check it against.`;
    deps.log.warn(message);
    void vscode.window.showInformationMessage(`ACP Agents: ${message}`);
  }
  return addAndStart(deps, entry);
}

async function addCustomAgent(deps: AddAgentDeps): Promise<string | undefined> {
  const line = await deps.prompts.current.commandLine();
  if (!line?.trim()) {
    return;
  }
  const [command, ...args] = splitCommandLine(line);
  if (!command) {
    return;
  }
  const name = await deps.prompts.current.agentName(suggestAgentName(command, args));
  if (!name?.trim()) {
    return;
  }
  return addAndStart(deps, { name: name.trim(), command, args, env: {} });
}

/** Writes the agent into the **user** settings (never the workspace's), then selects and starts it. */
async function addAndStart(deps: AddAgentDeps, entry: AgentEntry): Promise<string> {
  const changed = new Promise<void>((resolve) => {
    const subscription = deps.catalog.onDidChange(() => {
      subscription.dispose();
      resolve();
    });
  });
  await writeUserAgents(withAgent(userAgentsRaw(), entry));
  await changed;
  const added = deps.catalog.agents.agents.find(
    (agent) => agent.label === entry.name && agent.command === entry.command,
  );
  if (!added) {
    throw new Error(`${entry.name} was added to your settings but is not offered (check acpAgents.agents).`);
  }
  await deps.reveal();
  await deps.chat.selectAgent(added.id);
  return added.label;
}

async function updateAgents(deps: AddAgentDeps): Promise<void> {
  const registry = await deps.registry.load(true);
  const platform = platformKey(process.platform, process.arch);
  const outdated = agentChoices(registry.agents, userAgents(), platform, process.env).filter(
    (choice) => choice.installedVersion && isNewerVersion(choice.agent.version, choice.installedVersion),
  );
  if (outdated.length === 0) {
    void vscode.window.showInformationMessage(
      'ACP Agents: every agent added from the ACP Registry is up to date.',
    );
    return;
  }
  for (const choice of outdated) {
    await install(deps, choice);
  }
}

async function removeAgent(deps: AddAgentDeps): Promise<void> {
  const agents = userAgents();
  if (agents.length === 0) {
    void vscode.window.showInformationMessage(
      'ACP Agents: there is no agent in your user settings to remove.',
    );
    return;
  }
  const name = await deps.prompts.current.agentToRemove(agents.map((agent) => agent.name));
  const entry = agents.find((agent) => agent.name === name);
  if (!entry) {
    return;
  }
  await writeUserAgents(withoutAgent(userAgentsRaw(), entry.name));
  // A downloaded agent's files go too; anything else (npx's cache, a program on PATH) is not ours.
  const folder = entry.registry ? path.join(deps.registry.agentsDir, entry.registry.id) : undefined;
  if (folder && entry.command.startsWith(folder + path.sep)) {
    await rm(folder, { recursive: true, force: true });
  }
}

function userAgentsRaw(): unknown {
  return vscode.workspace.getConfiguration('acpAgents').inspect<unknown>('agents')?.globalValue;
}

function userAgents(): AgentEntry[] {
  const raw = userAgentsRaw();
  return (Array.isArray(raw) ? raw : []).flatMap((item: unknown) => {
    const parsed = AgentSettingSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

function writeUserAgents(list: unknown[]): Thenable<void> {
  return vscode.workspace
    .getConfiguration('acpAgents')
    .update('agents', list, vscode.ConfigurationTarget.Global);
}

async function reportFailure(name: string, error: unknown, log: vscode.LogOutputChannel): Promise<void> {
  if (error instanceof Error && error.name === 'AbortError') {
    log.info(`${name}: cancelled`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  log.error(`${name} failed: ${message}`);
  if (error instanceof MissingToolError) {
    const url =
      error.tool === 'uvx' ? 'https://docs.astral.sh/uv/getting-started/installation/' : 'https://nodejs.org';
    const open = `Get ${error.tool === 'uvx' ? 'uv' : 'Node.js'}`;
    if ((await vscode.window.showErrorMessage(`ACP Agents: ${message}`, open)) === open) {
      await vscode.env.openExternal(vscode.Uri.parse(url));
    }
    return;
  }
  void vscode.window.showErrorMessage(`ACP Agents: ${name} failed: ${message}`);
}
