import type { ConfigOptionMessage, SessionStateMessage } from '../../src/protocol';

/** The session settings the header offers: each one once. */
export interface SessionSettings {
  readonly modes: SessionStateMessage['modes'];
  readonly configOptions: readonly ConfigOptionMessage[];
}

/**
 * ACP: a client that supports config options uses them and ignores the older `modes`. Agents that
 * send both (Claude Code, Copilot, Qwen Code; pi sends its thinking levels as modes and as a
 * `thought_level` option) would otherwise get two pickers showing the same value, so `modes` is
 * dropped as soon as the agent sends any config option, whatever its category. An option repeated
 * under the same id or name (seen as "Thinking: off" twice) is shown once, the first one winning.
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
  return { modes: configOptions.length > 0 ? undefined : state.modes, configOptions };
}
