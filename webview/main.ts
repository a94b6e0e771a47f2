// The chat view's browser code: builds the UI in <main id="app">, then says `ready` so the host
// sends the snapshot.
import './zodSetup';
import './elements';
import { ChatApp } from './app';
import { startMarkdownWorker } from './markdown/markdownWorkerClient';
import { MARKDOWN_EVENTS } from './markdown/workerProtocol';
import { HostBridge } from './vscodeApi';

// Streamed markdown is planned in a worker once it runs (see markdown/streamingMarkdown.ts).
const markdownWorkerUrl = document.querySelector<HTMLMetaElement>('meta[name="acp-markdown-worker"]')?.content;
if (markdownWorkerUrl) {
  void startMarkdownWorker(markdownWorkerUrl);
}
// `<html data-markdown="busy">` while an answer's text waits for the worker: the turn may already show as
// ended (its status is not held back), so whoever must read a finished answer whole waits for this to go.
window.addEventListener(MARKDOWN_EVENTS.busy, () => (document.documentElement.dataset.markdown = 'busy'));
window.addEventListener(MARKDOWN_EVENTS.settled, () => delete document.documentElement.dataset.markdown);

const root = document.getElementById('app');
if (root) {
  const bridge = new HostBridge();
  const app = new ChatApp(root, bridge);
  // A post carries a host message, or several sent together (`HostPost`): each is parsed on its own, and
  // the frame they request is one.
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    for (const message of Array.isArray(event.data) ? (event.data as unknown[]) : [event.data]) {
      app.receive(message);
    }
  });
  // The view was focused (ACP: Open Chat, its key, a click on its title): type at once.
  window.addEventListener('focus', () => app.pageFocused());
  bridge.post({ type: 'ready' });
}
