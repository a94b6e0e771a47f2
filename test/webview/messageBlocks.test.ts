import assert from 'node:assert/strict';
import { added, events, message, snapshot, toolCall, turn } from './support/builders';
import { useChatPages } from './support/suite';

describe('webview: agent messages as separate blocks', () => {
  const chat = useChatPages();

  it('renders text after a tool call, and a second message, as blocks of their own, never run together', async () => {
    const page = await chat.openShowing(
      snapshot({
        entries: [message('user', 'e1', 'Create hello.txt'), message('agent', 'e2', "I'll create hello.txt")],
        turns: [turn('t1')],
      }),
    );
    await page.host(
      events(
        added(toolCall('e3', { title: 'Write hello.txt', toolKind: 'edit', status: 'completed' })),
        added(message('agent', 'e4', 'Done.')),
        added(message('agent', 'e5', 'I found no other issues.')),
      ),
    );

    const agentBlocks = page.page.locator('.entry-agent');
    assert.deepEqual(await agentBlocks.allInnerTexts(), [
      "I'll create hello.txt",
      'Done.',
      'I found no other issues.',
    ]);
    const turnText = await page.page.locator('.turn').innerText();
    assert.doesNotMatch(turnText, /hello\.txtDone|Done\.I found/);
    // Apart on screen too: each block starts below the previous one's end.
    const boxes = await agentBlocks.evaluateAll((elements) =>
      elements.map((element) => element.getBoundingClientRect()).map((box) => [box.top, box.bottom]),
    );
    for (let i = 1; i < boxes.length; i++) {
      assert.ok(
        boxes[i]![0]! >= boxes[i - 1]![1]!,
        `block ${i} starts below block ${i - 1}: ${JSON.stringify(boxes)}`,
      );
    }
  });
});
