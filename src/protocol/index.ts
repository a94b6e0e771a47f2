export * from './messages';
export * from './thread';
export * from './threadModel';
export * from './elicitation';
export * from './agentSessions';
export * from './worktrees';
export * from './chatList';
