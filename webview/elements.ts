/*
 * The @vscode-elements component the view uses, registered once. It is imported on its own so the
 * bundle carries only it (and Lit), not the whole library. The header's checkbox and the starting
 * spinner are native elements drawn like vscode-checkbox and vscode-progress-ring (dom.ts,
 * statusBanner.ts): 15 KiB less for one checkbox and one spinner.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
