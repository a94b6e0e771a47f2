/**
 * The agent doctor as a bundle of its own (`dist/doctor.js`, built by esbuild.mjs): loaded by the first
 * "ACP: Check Agents", not with the chat.
 */
export { checkAgents, type CheckAgentsDeps, type CheckAgentsResult } from './checkAgents';
