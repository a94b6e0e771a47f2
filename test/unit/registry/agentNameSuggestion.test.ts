import { strict as assert } from 'node:assert';
import { suggestAgentName } from '../../../src/features/registry/chat/agentNameSuggestion';
import { splitCommandLine } from '../../../src/features/registry/chat/userAgents';

/** The name offered for a command line as the user types it. */
const suggested = (line: string): string => {
  const [command, ...args] = splitCommandLine(line);
  return suggestAgentName(command ?? '', args);
};

describe('custom agents: the name offered for a command line', () => {
  it('names a script run by an interpreter after the script, not the interpreter', () => {
    assert.equal(suggested('node /home/me/acp/dist/demo-agent.js'), 'demo-agent');
    assert.equal(suggested('node --enable-source-maps -r dotenv/config ./agent.mjs --acp'), 'agent');
    assert.equal(suggested('python3 -u my_agent.py'), 'my_agent');
    assert.equal(suggested('python -m acp_server.main --stdio'), 'acp_server');
    assert.equal(suggested('deno run -A jsr-agent.ts'), 'jsr-agent');
    assert.equal(suggested('java -jar /opt/tools/coder.jar'), 'coder');
    assert.equal(suggested('env DEBUG=1 node ./bin/helper.js'), 'helper');
  });

  it('looks past file names that say nothing (index, main, dist, bin) to the folder that names it', () => {
    assert.equal(suggested('node /home/me/projects/my-agent/dist/index.js'), 'my-agent');
    assert.equal(suggested('"C:\\\\Tools\\\\Fancy Agent\\\\bin\\\\main.cmd" --acp'), 'Fancy Agent');
  });

  it('names a package a runner fetches after the package, without scope or version', () => {
    assert.equal(suggested('npx -y @zed-industries/claude-code-acp@0.5.1'), 'claude-code-acp');
    assert.equal(suggested('npx --yes opencode-ai@latest acp'), 'opencode-ai');
    assert.equal(suggested('pnpm dlx @google/gemini-cli --experimental-acp'), 'gemini-cli');
    assert.equal(suggested('uvx --from git+https://example.com/x.git fast-agent-acp'), 'fast-agent-acp');
    assert.equal(suggested('uv run ./agents/local.py'), 'local');
  });

  it('names any other program after its file name', () => {
    assert.equal(suggested('gemini --experimental-acp'), 'gemini');
    assert.equal(suggested('/usr/local/bin/codex-acp'), 'codex-acp');
    assert.equal(suggested('C:\\\\bin\\\\copilot.exe --acp'), 'copilot');
    // An interpreter alone (nothing to run named): its own name is all there is.
    assert.equal(suggested('node'), 'node');
  });
});
