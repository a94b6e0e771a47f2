// When a DOM change is painted, as the bench's probes stamp it in a page: the round trip and its floor, the
// chunk-to-paint latency, the reopened chat's first paint.

/**
 * In a page, once: `window.__whenPainted(stamp)` calls `stamp` when the frame that first shows a DOM change
 * just made has been painted. A change made in an animation-frame callback is painted by that frame; one made
 * in any other task (a message, a worker's answer) by the next. The page's animation-frame callbacks are
 * wrapped to tell which: a mutation observer's callback, a microtask queued by the change, runs before the
 * microtask the wrapper queues after the callback returns. A task posted while a frame is rendered runs once
 * its paint is done. (Stamping the next animation frame instead, as before, put a change made in a frame's
 * own callbacks a frame late.)
 */
export const WHEN_PAINTED = `(() => {
  if (window.__whenPainted) return;
  const original = window.requestAnimationFrame.bind(window);
  let inFrameCallback = false;
  window.requestAnimationFrame = (callback) => original((time) => {
    inFrameCallback = true;
    try { callback(time); } finally { queueMicrotask(() => { inFrameCallback = false; }); }
  });
  const afterThisTask = (then) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => then();
    channel.port2.postMessage(0);
  };
  window.__whenPainted = (stamp) => inFrameCallback ? afterThisTask(stamp) : original(() => afterThisTask(stamp));
})();`;
