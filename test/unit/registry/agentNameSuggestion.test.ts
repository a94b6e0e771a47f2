import { strict as assert } from 'node:assert';
import { suggestAgentName } from '../../../src/features/registry/chat/agentNameSuggestion';
import { splitCommandLine } from '../../../src/features/registry/chat/userAgents';

/** The name offered for a command line as the user types it. */
const suggested = (line: string): string => {
  const [command, ...args] = splitCommandLine(line);
  return suggestAgentName(command ?? '', args);
};

/** Each rule, with the command lines that show it and the name each one gets. */
const RULES: ReadonlyArray<{ rule: string; names: ReadonlyArray<readonly [line: string, name: string]> }> = [
  {
    rule: 'names a script run by an interpreter after the script, not the interpreter',
    names: [
      ['node /home/me/acp/dist/demo-agent.js', 'demo-agent'],
      ['node --enable-source-maps -r dotenv/config ./agent.mjs --acp', 'agent'],
      ['python3 -u my_agent.py', 'my_agent'],
      ['python -m acp_server.main --stdio', 'acp_server'],
      ['deno run -A jsr-agent.ts', 'jsr-agent'],
      ['java -jar /opt/tools/coder.jar', 'coder'],
      ['env DEBUG=1 node ./bin/helper.js', 'helper'],
    ],
  },
  {
    rule: 'looks past file names that say nothing (index, main, dist, bin) to the folder that names it',
    names: [
      ['node /home/me/projects/my-agent/dist/index.js', 'my-agent'],
      ['"C:\\\\Tools\\\\Fancy Agent\\\\bin\\\\main.cmd" --acp', 'Fancy Agent'],
    ],
  },
  {
    rule: 'names a package a runner fetches after the package, without scope or version',
    names: [
      ['npx -y @zed-industries/claude-code-acp@0.5.1', 'claude-code-acp'],
      ['npx --yes opencode-ai@latest acp', 'opencode-ai'],
      ['pnpm dlx @google/gemini-cli --experimental-acp', 'gemini-cli'],
      ['uvx --from git+https://example.com/x.git fast-agent-acp', 'fast-agent-acp'],
      ['uv run ./agents/local.py', 'local'],
    ],
  },
  {
    rule: 'names any other program after its file name',
    names: [
      ['gemini --experimental-acp', 'gemini'],
      ['/usr/local/bin/codex-acp', 'codex-acp'],
      ['C:\\\\bin\\\\copilot.exe --acp', 'copilot'],
      // An interpreter alone (nothing to run named): its own name is all there is.
      ['node', 'node'],
    ],
  },
];

describe('custom agents: the name offered for a command line', () => {
  for (const { rule, names } of RULES) {
    it(rule, () => {
      for (const [line, name] of names) {
        assert.equal(suggested(line), name, line);
      }
    });
  }
});
