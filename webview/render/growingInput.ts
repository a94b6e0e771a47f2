/** How tall the message box grows before it scrolls (its CSS max-height says the same). */
const MAX_INPUT_HEIGHT_PX = 240;

/** Sizes a text box to its lines, up to MAX_INPUT_HEIGHT_PX. */
export function fitToLines(input: HTMLTextAreaElement): void {
  if (input.value === '') {
    // One empty line needs no measuring: reading scrollHeight would lay out the whole page in the
    // keydown of Send, before the message leaves (the webview shares its thread with the workbench).
    input.style.height = '';
    return;
  }
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, MAX_INPUT_HEIGHT_PX)}px`;
}
