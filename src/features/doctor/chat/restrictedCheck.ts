import type { AgentDefinition } from '../../../chat/agentSettings';
import type { AgentDiagnosis, AgentOrigin } from './diagnosis';

/** Why nothing is checked in Restricted Mode, as the report and the log say it. */
export const NOT_TRUSTED = 'not checked: this workspace is not trusted';

/**
 * The doctor's answer for an agent in an untrusted workspace: nothing is looked up or started. Even a
 * user-configured agent would start in the workspace folder, where `npx`, a local `node_modules/.bin`
 * or the agent's own project settings (hooks, MCP servers) would run the workspace's code.
 */
export function notCheckedDiagnosis(agent: AgentDefinition, origin: AgentOrigin): AgentDiagnosis {
  return {
    agent,
    origin,
    notChecked: NOT_TRUSTED,
    problems: [
      {
        problem: 'Not checked: this workspace is not trusted, so no agent is started here.',
        fix: 'Run _Manage Workspace Trust_ (command `workbench.trust.manage`) and trust the folder if you trust its authors, then run _ACP: Check Agents_ again.',
      },
    ],
    ms: 0,
  };
}

/** Why a workspace-defined agent the user did not allow is not checked. */
export const NOT_ALLOWED = 'not checked: you did not allow this workspace’s agent to run';

/** The doctor's answer for an agent the workspace's settings define and the user did not allow: not started. */
export function notAllowedDiagnosis(agent: AgentDefinition, origin: AgentOrigin): AgentDiagnosis {
  return {
    agent,
    origin,
    notChecked: NOT_ALLOWED,
    problems: [
      {
        problem: `Not checked: ${agent.origin?.source ?? 'the workspace settings'} define it, and you did not allow it to run.`,
        fix: 'Run _ACP: Reset Consent to Workspace Programs_ to be asked again, then run _ACP: Check Agents_.',
      },
    ],
    ms: 0,
  };
}
