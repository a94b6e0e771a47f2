/** How much of a file is looked at to call it binary — the same as git. */
export const BINARY_SNIFF_BYTES = 8000;

/** Git's rule: a NUL byte in the first 8000 bytes makes a file binary (the one test everywhere). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
