/**
 * The general helpers of the integration suites, one module per concept, re-exported here so a suite
 * imports them from one place (suite hooks, the real adapter's and the screenshot helpers are imported
 * from their own modules): the extension's API, bounded waits, scripted answers for its dialogs (the
 * `UserPrompts` seam), the active chat's transcript, settings that are restored afterwards, the sample
 * workspace's files and editors, the chat view, and the agent processes.
 *
 * Every suite is bundled on its own (scripts/testIntegration.mjs), so this module's state is per suite.
 */
export * from './activeChat';
export * from './agentProcesses';
export * from './chatView';
export * from './extensionApi';
export * from './prompts';
export * from './settings';
export * from './waits';
export * from './workspace';
