import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { Thread } from '../../src/core/thread/thread';
import type { ThreadEvent } from '../../src/core/thread/threadTypes';
import type { ThreadEventMessage } from '../../src/protocol';
import { events, snapshot } from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

function agentChunk(text: string): acp.SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

describe('webview: a message over the limit', () => {
  const chat = useChatPages();

  it('shows its head, a marker and its end, and "Open the whole message" asks the host for it', async () => {
    // The real thread cuts the message; the view gets the events it emitted, as the host sends them.
    const thread = new Thread({ maxMessageChars: 2_000 });
    const emitted: ThreadEvent[] = [];
    thread.onEvent((event) => emitted.push(event));
    const turn = thread.startTurn('Write a long report', []);
    thread.applyUpdate(agentChunk('# The report starts here\n\n'));
    for (let section = 1; section <= 60; section++) {
      thread.applyUpdate(agentChunk(`Section ${section}: ${'findings '.repeat(12)}\n\n`));
    }
    thread.applyUpdate(agentChunk('## Conclusion\n\nThe end of the report, which matters most.\n'));
    thread.endTurn(turn.id, { status: 'completed', stopReason: 'end_turn' });

    const page = await chat.openShowing(snapshot());
    await page.host(events(...(emitted as ThreadEventMessage[])));

    const agent = page.page.locator('.entry-agent, [data-entry-id="e2"]').last();
    const text = (await agent.textContent()) ?? '';
    assert.ok(text.includes('The report starts here'), 'the head is shown');
    assert.ok(text.includes('The end of the report, which matters most.'), 'the end is shown');
    assert.match(
      text,
      /[\d,]+ characters not shown here: the message is over 2,000 characters; its end follows/,
    );
    assert.ok(text.indexOf('The report starts here') < text.indexOf('characters not shown here'));
    assert.ok(text.indexOf('characters not shown here') < text.indexOf('The end of the report'));
    assert.ok(!text.includes('Section 30:'), 'the middle is not shown');

    mkdirSync(OUT, { recursive: true });
    await agent.scrollIntoViewIfNeeded();
    await page.page.screenshot({ path: `${OUT}/long-message-cut.png` });

    await page.clearPosted();
    await page.page.getByRole('button', { name: 'Open the whole message' }).click();
    assert.deepEqual(await page.postedOf('open_message'), [{ type: 'open_message', entryId: 'e2' }]);
  });
});
