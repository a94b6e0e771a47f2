import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { snapshot, status } from './support/builders';
import { useChatPages } from './support/suite';

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Pastes files into the composer through a real ClipboardEvent carrying a real DataTransfer. */
async function paste(
  page: Page,
  files: { name: string; type: string; base64?: string; size?: number }[],
): Promise<void> {
  await page.locator('.composer-input').evaluate((input, list) => {
    const transfer = new DataTransfer();
    for (const file of list) {
      const bytes = file.base64
        ? Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))
        : new Uint8Array(file.size ?? 0);
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    input.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, files);
}

/** Drops onto the transcript (anywhere on the chat) with real DragEvents. */
async function drop(
  page: Page,
  payload: { uriList?: string; files?: { name: string; type: string; base64?: string; text?: string }[] },
): Promise<void> {
  await page.locator('.transcript').evaluate((target, data) => {
    const transfer = new DataTransfer();
    if (data.uriList) {
      transfer.setData('text/uri-list', data.uriList);
    }
    for (const file of data.files ?? []) {
      const content = file.base64
        ? Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))
        : (file.text ?? '');
      transfer.items.add(new File([content], file.name, { type: file.type }));
    }
    const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
    target.dispatchEvent(over);
    if (!over.defaultPrevented) {
      throw new Error('the chat did not accept the drag');
    }
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, payload);
}

describe('webview: images, drops and the paperclip', () => {
  const chat = useChatPages();

  it('pastes a clipboard image as a chip with a thumbnail and sends it as base64', async () => {
    const page = await chat.openShowing(snapshot());
    await paste(page.page, [{ name: 'screenshot.png', type: 'image/png', base64: PNG_1PX }]);
    const chip = page.page.locator('.composer-image');
    await chip.waitFor();
    assert.equal(await chip.locator('.chip-label').textContent(), 'screenshot.png');
    assert.equal(await chip.locator('img').getAttribute('src'), `data:image/png;base64,${PNG_1PX}`);
    await page.send('What is wrong here?');
    assert.deepEqual(await page.postedOf('send'), [
      {
        type: 'send',
        text: 'What is wrong here?',
        images: [{ name: 'screenshot.png', mimeType: 'image/png', data: PNG_1PX }],
      },
    ]);
    assert.equal(await chip.count(), 0);
  });

  it('says so inline when the agent does not take images, and attaches nothing', async () => {
    const page = await chat.openShowing(snapshot());
    await page.host(
      status({
        state: 'ready',
        agentName: 'Text Agent',
        promptCapabilities: { image: false, embeddedContext: false },
      }),
    );
    await paste(page.page, [{ name: 'screenshot.png', type: 'image/png', base64: PNG_1PX }]);
    await page.page.locator('.alert').waitFor();
    assert.match(await page.page.locator('.alert').innerText(), /Text Agent does not take images/);
    assert.equal(await page.page.locator('.composer-image').count(), 0);
  });

  it('refuses an image over 5 MB and a type agents cannot take, saying why', async () => {
    const page = await chat.openShowing(snapshot());
    await paste(page.page, [
      { name: 'huge.png', type: 'image/png', size: 6 * 1024 * 1024 },
      { name: 'vector.svg', type: 'image/svg+xml', size: 10 },
    ]);
    await page.page.locator('.alert').waitFor();
    const text = await page.page.locator('.alert').innerText();
    assert.match(text, /huge\.png is 6 MB; images up to 5 MB can be sent/);
    assert.match(text, /vector\.svg is image\/svg\+xml; PNG, JPEG, GIF and WebP/);
    assert.equal(await page.page.locator('.composer-image').count(), 0);
  });

  it('attaches files dropped from the Explorer (a uri-list) and images dropped from the OS', async () => {
    const page = await chat.openShowing(snapshot());
    await drop(page.page, { uriList: 'file:///ws/src/hello.ts\r\nfile:///ws/README.md' });
    await drop(page.page, { files: [{ name: 'photo.png', type: 'image/png', base64: PNG_1PX }] });
    await page.page.locator('.composer-image').waitFor();
    assert.deepEqual(await page.page.locator('.composer-chip .chip-label').allTextContents(), [
      'hello.ts',
      'README.md',
      'photo.png',
    ]);
    await page.send('compare');
    const [sent] = await page.postedOf('send');
    assert.deepEqual(sent?.attachments, [
      { uri: 'file:///ws/src/hello.ts', name: 'hello.ts' },
      { uri: 'file:///ws/README.md', name: 'README.md' },
    ]);
    assert.equal(sent?.images?.[0]?.name, 'photo.png');
  });

  it('carries the text of an OS file dropped without a path, and refuses a binary one', async () => {
    const page = await chat.openShowing(snapshot());
    await drop(page.page, {
      files: [
        { name: 'notes.txt', type: 'text/plain', text: 'remember the milk' },
        { name: 'blob.bin', type: '', text: 'a\u0000b' },
      ],
    });
    const chip = page.page.locator('.composer-text-file');
    await chip.waitFor();
    assert.equal(await chip.locator('.chip-label').textContent(), 'notes.txt');
    assert.match(await page.page.locator('.alert').innerText(), /blob\.bin is not a text file/);
    await page.send('read this');
    assert.deepEqual(await page.postedOf('send'), [
      { type: 'send', text: 'read this', textFiles: [{ name: 'notes.txt', text: 'remember the milk' }] },
    ]);
  });

  it('opens the file dialog from the paperclip', async () => {
    const page = await chat.openShowing(snapshot());
    await page.page.getByRole('button', { name: 'Attach files' }).click();
    assert.deepEqual(await page.postedOf('pick_files'), [{ type: 'pick_files' }]);
  });
});
