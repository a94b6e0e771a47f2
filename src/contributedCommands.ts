/**
 * The command ids in a package.json's `contributes.commands` (the extension's own manifest).
 * `extension.ts` registers a stand-in for each at activation (see `LazyChatHost`), so every command in the
 * palette and the menus works before the chat has been loaded. Free of `vscode`, so it is unit-tested.
 */
export function contributedCommandIds(manifest: unknown): string[] {
  const commands = (manifest as { contributes?: { commands?: unknown } } | undefined)?.contributes?.commands;
  if (!Array.isArray(commands)) {
    return [];
  }
  return commands.flatMap((entry: unknown) => {
    const id = (entry as { command?: unknown } | null)?.command;
    return typeof id === 'string' ? [id] : [];
  });
}
