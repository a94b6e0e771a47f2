export * from './messages';
export * from './thread';
