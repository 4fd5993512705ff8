import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * With WORKERS > 1 a scrape reaches one worker at random, so a worker's /metrics asks the primary,
 * which gathers every worker's registry over IPC (prom-client's AggregatorRegistry) and sums them.
 */
const REQUEST = 'contact-verify:metrics-request';
const RESPONSE = 'contact-verify:metrics-response';
const TIMEOUT_MS = 5000;

interface MetricsMessage {
  type: string;
  id: string;
  text?: string;
  error?: string;
}

const pending = new Map<string, (message: MetricsMessage) => void>();
let joined = false;

/**
 * In a cluster worker, makes `registry` the one the primary collects, from start-up on: a worker
 * that joined late would leave the primary's collection waiting for an answer that never comes.
 */
export function joinClusterMetrics(registry: Registry): void {
  if (!cluster.isWorker || joined) return;
  joined = true;
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
  process.on('message', (message: MetricsMessage) => {
    if (message?.type === RESPONSE) pending.get(message.id)?.(message);
  });
}

/** In a cluster worker: the cluster-wide text, via the primary. Elsewhere: null (use local). */
export function clusterMetrics(): Promise<string> | null {
  const send = process.send?.bind(process);
  if (!joined || !send) return null;
  return new Promise((resolve, reject) => {
    const id = randomUUID();
    const timer = setTimeout(
      () => settle({ type: RESPONSE, id, error: 'the primary did not answer' }),
      TIMEOUT_MS,
    );
    const settle = (message: MetricsMessage) => {
      clearTimeout(timer);
      pending.delete(id);
      if (message.error !== undefined) reject(new Error(`cluster metrics: ${message.error}`));
      else resolve(message.text ?? '');
    };
    pending.set(id, settle);
    send({ type: REQUEST, id });
  });
}

/** In the primary: answers workers' metrics requests with the sum over all workers. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: MetricsMessage) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: RESPONSE, id: message.id, text }),
      (err: Error) => worker.send({ type: RESPONSE, id: message.id, error: err.message }),
    );
  });
}
