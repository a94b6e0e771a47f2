// Run by `inWorker` (test/support/inWorker.ts): asks the broker the form in `workerData.params` and
// answers it with `workerData.values`, then posts what the broker said. A pattern that backtracks
// blocks this thread, not the test's.
import { parentPort, workerData } from 'node:worker_threads';
import type * as acp from '@agentclientprotocol/sdk';
import { silentLogger } from '../../../../src/core/ports';
import { compileAgentPattern } from '../../../../src/features/elicitation/core/agentPattern';
import { ElicitationBroker } from '../../../../src/features/elicitation/core/elicitationBroker';

const { params, values } = workerData as {
  params: acp.CreateElicitationRequest;
  values: Record<string, string>;
};
const broker = new ElicitationBroker(silentLogger, compileAgentPattern);
try {
  void broker.request({ agentId: 'agent', sessionId: 'session', params }, new AbortController().signal);
  const key = broker.pending()[0]?.elicitation.key ?? '';
  parentPort?.postMessage({ outcome: broker.answer(key, { action: 'accept', values }) });
} catch (error) {
  parentPort?.postMessage({ refused: error instanceof Error ? error.message : String(error) });
}
