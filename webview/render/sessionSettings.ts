import type { ConfigOptionMessage, SessionStateMessage } from '../../src/protocol';

/** The session settings the header offers: each one once. */
export interface SessionSettings {
  readonly modes: SessionStateMessage['modes'];
  readonly configOptions: readonly ConfigOptionMessage[];
}

/**
 * ACP: when an agent provides config options, clients should use them instead of the older
 * `modes`. Agents that send both (Claude Code, Copilot, Qwen Code) would otherwise get two
 * identical Mode pickers, so `modes` is dropped once a config option of category `mode` exists.
 * An option repeated under the same id or name (seen as "Thinking: off" twice) is shown once,
 * the first one winning.
 */
export function sessionSettings(
  state: Pick<SessionStateMessage, 'modes' | 'configOptions'>,
): SessionSettings {
  const seen = new Set<string>();
  const configOptions = state.configOptions.filter((option) => {
    const keys = [`id:${option.id}`, `name:${option.name.trim().toLowerCase()}`];
    if (keys.some((key) => seen.has(key))) {
      return false;
    }
    keys.forEach((key) => seen.add(key));
    return true;
  });
  const modeOption = configOptions.some((option) => option.category === 'mode');
  return { modes: modeOption ? undefined : state.modes, configOptions };
}
