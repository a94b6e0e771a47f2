import type { ChatContributionFactory } from '../../../chat/chatContribution';
import type { CurrentFileSource } from './currentFileSource';

/** The active editor's file, offered on every view's composer as a removable chip (and kept up to date). */
export function currentFileContribution(source: CurrentFileSource): ChatContributionFactory {
  return ({ presenter }) => {
    const subscription = source.onDidChange(() => {
      const file = source.current();
      presenter.postToAll({ type: 'current_file', ...(file ? { file } : {}) });
    });
    return {
      id: 'currentFile',
      viewState: () => {
        const currentFile = source.current();
        return currentFile ? { currentFile } : {};
      },
      dispose: () => subscription.dispose(),
    };
  };
}
