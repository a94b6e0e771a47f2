import { looksFatal } from '../../../core/connection/stderrLines';
import type { SignInMethod } from '../../../core/connection/authMethods';
import type { AgentError } from '../../../core/connection/errors';
import type { AgentDefinition } from '../../../chat/agentSettings';
import type { DoctorProblem, SessionFindings } from './diagnosis';
import { escapeMarkdown } from './doctorReport';

/*
 * The doctor's problems and their fixes, in words a user acts on: the agent's own reason quoted where it
 * printed one.
 */

/** The Node major the agents we know need (and this extension's own engines.node). */
export const MIN_NODE_MAJOR = 20;

export function sessionProblem(
  session: Extract<SessionFindings, { ok: false }>,
  methods: readonly SignInMethod[],
  agent: AgentDefinition,
  said: readonly string[],
): DoctorProblem {
  if (session.signedIn === false) {
    return {
      problem: `Not signed in: the agent answered "${escapeMarkdown(session.message)}".`,
      fix: signInFix(methods, agent),
    };
  }
  const reason = ownWords(said);
  const commandLine = [agent.command, ...agent.args].join(' ');
  return {
    problem: `The agent started but could not create a session: ${escapeMarkdown(session.message)}`,
    fix: reason
      ? `${reason} Fix what it names (run \`${commandLine}\` in a terminal to see it there too), then check again.`
      : said.length > 0
        ? 'Read its output below; check its settings and that the workspace folder is readable.'
        : 'It wrote nothing on stderr: open _ACP: Show Agent Log_ for the protocol messages; check its settings and that the workspace folder is readable.',
  };
}

/**
 * The agent's own reason, quoted: the last stderr line that says it cannot go on (lines already plain,
 * scrubbed and bounded). Undefined when it printed none (its chatter is no reason).
 */
function ownWords(said: readonly string[]): string | undefined {
  const line = said.findLast(looksFatal);
  return line === undefined ? undefined : `The agent said: “${escapeMarkdown(line)}”.`;
}

/** What to do to sign in, from the methods the agent offers. */
function signInFix(methods: readonly SignInMethod[], agent: AgentDefinition): string {
  if (methods.length === 0) {
    return `Sign in with the agent’s own command line (run \`${agent.command}\` in a terminal and follow its login), then check again.`;
  }
  const ways = methods.map((method) => {
    switch (method.kind) {
      case 'agent':
        return `**${method.name}** (the chat’s _Sign in_ button)`;
      case 'terminal':
        return `**${method.name}** (the chat’s _Sign in_ button runs \`${[method.command ?? agent.command, ...method.args].join(' ')}\` in a terminal)`;
      case 'env_var':
        return `**${method.name}**: set ${method.variables.map((v) => `\`${v.name}\``).join(', ')} (the chat’s _Sign in_ button asks for it and keeps it in VS Code’s secret storage)`;
      default: {
        const never: never = method;
        return String(never);
      }
    }
  });
  return `Sign in: ${ways.join('; or ')}. Then check again.`;
}

export function startProblem(
  failure: AgentError,
  agent: AgentDefinition,
  stderrTail: readonly string[],
): DoctorProblem {
  const commandLine = [agent.command, ...agent.args].join(' ');
  const reason = ownWords(stderrTail);
  const quoted = reason ? `${reason} ` : '';
  switch (failure.kind) {
    case 'timeout':
      return {
        problem: `\`${commandLine}\` started but did not answer \`initialize\`: ${escapeMarkdown(failure.message)}`,
        fix:
          quoted +
          'Check that these arguments make it speak ACP on stdio (e.g. `copilot --acp --stdio`, `gemini --acp`, `opencode acp`); an older version may not support ACP — update it.',
      };
    case 'not_supported':
      return {
        problem: escapeMarkdown(failure.message),
        fix: 'Update the agent to a version that speaks ACP v1.',
      };
    case 'process_exited': {
      const nodeTooOld = stderrTail.some((line) =>
        /SyntaxError|requires? (a )?node|node(\.js)? (version|>=|v?\d+)|Unsupported engine/i.test(line),
      );
      return {
        problem: `\`${commandLine}\` ${failure.message.replace(/^The agent /, '').replace(/\.$/, '')} before it answered \`initialize\`.`,
        fix: nodeTooOld
          ? `Its output points at the Node.js version: this agent needs Node ≥ ${MIN_NODE_MAJOR}. Install a current Node.js, then restart VS Code.`
          : reason
            ? `${reason} Run the same command in a terminal to see it fail there too; check the arguments and \`env\` in \`acpAgents.agents\`.`
            : stderrTail.length > 0
              ? 'Read its output below; run the same command in a terminal to see it fail there too. Check the arguments and `env` in `acpAgents.agents`.'
              : 'It wrote no output: run the same command in a terminal to see why it stops. Check the arguments and `env` in `acpAgents.agents`.',
      };
    }
    default:
      return {
        problem: `Starting \`${commandLine}\` failed: ${escapeMarkdown(boundedText(failure.message))}`,
        fix: reason
          ? `${reason} Check the command in \`acpAgents.agents\`.`
          : 'Open _ACP: Show Agent Log_ for details, and check the command in `acpAgents.agents`.',
      };
  }
}

export function boundedText(text: string, max = 300): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
