/**
 * The @-mention index as a bundle of its own (`dist/mentions.js`, built by esbuild.mjs): the workspace's
 * file list, ignore rules and fuzzy matching load with the first mention query, not with the chat.
 */
export { VsCodeMentionSource } from './vscodeMentionSource';
