// The chat view's browser code. Until the chat UI lands it explains what the view is for.
const app = document.getElementById('app');
if (app) {
  const heading = document.createElement('h2');
  heading.textContent = 'ACP Agents';
  const text = document.createElement('p');
  text.textContent =
    'Chat with coding agents that speak the Agent Client Protocol. The chat view is being built.';
  app.replaceChildren(heading, text);
}
