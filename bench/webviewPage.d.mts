// Types of what TypeScript benches import from webviewPage.mjs.
/** The renderers' resident memory (MB, VmRSS from /proc), if known. */
export function rendererRssMb(): number | undefined;
