import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contributedCommandIds } from '../../src/contributedCommands';

describe('the commands that get a stand-in at activation', () => {
  it("are every command in the extension's package.json, in order", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    const ids = contributedCommandIds(manifest);
    assert.deepEqual(
      ids,
      manifest.contributes.commands.map((entry) => entry.command),
    );
    // The ones the palette, the menus and the status bar reach before the chat has loaded.
    for (const id of [
      'acpAgents.newChat',
      'acpAgents.sendToCopilot',
      'acpAgents.review.keep',
      'acpAgents.openChatInEditor',
    ]) {
      assert.ok(ids.includes(id), `${id} is missing from ${ids.join(', ')}`);
    }
  });

  it('skips what is not a command entry and reads a manifest without commands as none', () => {
    assert.deepEqual(
      contributedCommandIds({
        contributes: {
          commands: [{ command: 'a.one' }, { title: 'no id' }, null, 7, { command: 3 }, { command: 'a.two' }],
        },
      }),
      ['a.one', 'a.two'],
    );
    for (const manifest of [
      undefined,
      null,
      {},
      { contributes: {} },
      { contributes: { commands: 'a.one' } },
    ]) {
      assert.deepEqual(contributedCommandIds(manifest), [], JSON.stringify(manifest));
    }
  });
});
