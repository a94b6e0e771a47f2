/**
 * The Add Agent commands' ids: registered with the chat, their handlers load with `dist/registry.js`
 * (apart from the handlers, so that the chat's bundle does not carry them).
 */
export const ADD_AGENT_COMMANDS = [
  'acpAgents.addAgent',
  'acpAgents.updateAgents',
  'acpAgents.removeAgent',
] as const;
