import * as vscode from 'vscode';
import type { DiagnosticsPort, Problem } from '../chat/problemsOffer';
import type { Disposable } from '../../../core/util/disposable';

/** VS Code's Problems (`vscode.languages` diagnostics) as the chat's DiagnosticsPort: errors and warnings only. */
/** Changed files opened for their language servers to check, and how many at a time. */
const MAX_CHECKED_FILES = 50;
const CHECKED_AT_ONCE = 8;

export class VsCodeDiagnostics implements DiagnosticsPort {
  problems(paths?: readonly string[]): Problem[] {
    const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = paths
      ? paths.map((path) => {
          const uri = vscode.Uri.file(path);
          return [uri, vscode.languages.getDiagnostics(uri)];
        })
      : vscode.languages.getDiagnostics();
    return entries.flatMap(([uri, diagnostics]) =>
      uri.scheme !== 'file' ? [] : diagnostics.flatMap((diagnostic) => toProblem(uri.fsPath, diagnostic)),
    );
  }

  onDidChange(listener: (paths: readonly string[]) => void): Disposable {
    return vscode.languages.onDidChangeDiagnostics((event) =>
      listener(event.uris.filter((uri) => uri.scheme === 'file').map((uri) => uri.fsPath)),
    );
  }

  async check(paths: readonly string[]): Promise<void> {
    // An open document (not shown in an editor) is enough for most language servers to report on it;
    // TypeScript's checks only files in tabs (unless project-wide diagnostics are on), which the user opens.
    // Bounded: a turn that changed 5,000 files must not open 5,000 documents at once.
    const some = paths.slice(0, MAX_CHECKED_FILES);
    for (let i = 0; i < some.length; i += CHECKED_AT_ONCE) {
      await Promise.allSettled(
        some
          .slice(i, i + CHECKED_AT_ONCE)
          .map((path) => vscode.workspace.openTextDocument(vscode.Uri.file(path))),
      );
    }
  }

  relativePath(path: string): string {
    return vscode.workspace.asRelativePath(vscode.Uri.file(path), false);
  }
}

function toProblem(path: string, diagnostic: vscode.Diagnostic): Problem[] {
  const severity =
    diagnostic.severity === vscode.DiagnosticSeverity.Error
      ? 'error'
      : diagnostic.severity === vscode.DiagnosticSeverity.Warning
        ? 'warning'
        : undefined;
  if (!severity) {
    return [];
  }
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return [
    {
      path,
      line: diagnostic.range.start.line + 1,
      column: diagnostic.range.start.character + 1,
      severity,
      message: diagnostic.message,
      ...(diagnostic.source ? { source: diagnostic.source } : {}),
      ...(code !== undefined ? { code: String(code) } : {}),
    },
  ];
}
