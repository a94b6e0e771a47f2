import * as vscode from 'vscode';
import { loadRegistry, type LoadedRegistry } from '../core/registryStore';
import { DEFAULT_REGISTRY_URL } from '../core/registryFormat';

/**
 * The ACP Registry for this extension: its URL from `acpAgents.registry.url`, the cache in global
 * storage, the snapshot shipped in `media/`. Loaded once per window and again on demand (Add Agent
 * reloads so that it offers today's versions).
 */
export class RegistryService {
  private loading: Promise<LoadedRegistry> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly storage: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The folder binary agents are unpacked into (`<global storage>/agents/<id>/<version>`). */
  get agentsDir(): string {
    return vscode.Uri.joinPath(this.storage, 'agents').fsPath;
  }

  /** `acpAgents.registry.allowHttpFrom`: the hosts the list and downloads may come from over plain http. */
  get allowHttpFrom(): string[] {
    const value = vscode.workspace.getConfiguration('acpAgents').get<unknown>('registry.allowHttpFrom');
    return Array.isArray(value) ? value.filter((host): host is string => typeof host === 'string') : [];
  }

  /** The registry, fetched now when `fresh`, else the one this window already loaded. */
  load(fresh = false, signal?: AbortSignal): Promise<LoadedRegistry> {
    if (!this.loading || fresh) {
      const url =
        vscode.workspace.getConfiguration('acpAgents').get<string>('registry.url') || DEFAULT_REGISTRY_URL;
      const loading = loadRegistry(
        {
          url,
          allowHttpFrom: this.allowHttpFrom,
          cacheFile: vscode.Uri.joinPath(this.storage, 'acp-registry-cache.json').fsPath,
          snapshotFile: vscode.Uri.joinPath(this.extensionUri, 'media', 'acp-registry-snapshot.json').fsPath,
        },
        signal,
      ).then((registry) => {
        if (registry.source.kind !== 'network') {
          this.log.warn(
            `ACP Registry ${url} could not be read (${registry.source.error}); using the ${registry.source.kind}.`,
          );
        }
        for (const line of registry.skipped) {
          this.log.warn(`ACP Registry: skipped ${line}`);
        }
        return registry;
      });
      // A failed load is not kept: the next call tries again.
      loading.catch(() => {
        if (this.loading === loading) {
          this.loading = undefined;
        }
      });
      this.loading = loading;
    }
    return this.loading;
  }
}
