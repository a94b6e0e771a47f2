/*
 * The @vscode-elements components the view uses, registered once. Each is imported on its own so
 * the bundle carries only these (and Lit), not the whole library.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
