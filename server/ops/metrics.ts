/**
 * Prometheus metrics at GET /metrics (text format, prom-client), readable only with
 * `Authorization: Bearer <METRICS_TOKEN>` (what Prometheus' `authorization` setting sends); without
 * METRICS_TOKEN the address answers 404. Requests (count and duration by method, route and status),
 * the process (event-loop lag, memory, CPU: prom-client's defaults), database connections in use,
 * open event streams and mails in the outbox.
 *
 * With several API processes (WORKERS > 1) the process asked sends the question to the primary,
 * which gathers every process's numbers (prom-client's AggregatorRegistry) and answers the total.
 */
import cluster from 'node:cluster';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import { envelope } from '../../contract';
import type { DB } from '../db';
import { openStreams } from './streams';
import { WAITING } from '../mail';

/** One registry per process: the metrics describe the process, whichever app it runs. */
export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry });

const requests = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests answered, by method, route (its pattern) and status: count and duration',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** What each running app reads from: its database and its connections. */
interface Source {
  db: DB;
  connections?: () => { inUse: number; open: number };
}
const sources = new Set<Source>();

new client.Gauge({
  name: 'marketplace_api_processes',
  help: 'API processes answering (1 per process; summed over the processes under WORKERS)',
  registers: [metricsRegistry],
  collect() {
    this.set(1);
  },
});
new client.Gauge({
  name: 'marketplace_db_connections_in_use',
  help: 'Database connections busy with a query or transaction',
  registers: [metricsRegistry],
  collect() {
    this.set([...sources].reduce((n, s) => n + (s.connections?.().inUse ?? 0), 0));
  },
});
new client.Gauge({
  name: 'marketplace_db_connections_open',
  help: 'Database connections open (PostgreSQL: up to PG_POOL_SIZE per process)',
  registers: [metricsRegistry],
  collect() {
    this.set([...sources].reduce((n, s) => n + (s.connections?.().open ?? 0), 0));
  },
});
new client.Gauge({
  name: 'marketplace_event_streams_open',
  help: 'Server-sent event streams open (the live chat)',
  registers: [metricsRegistry],
  collect() {
    this.set(openStreams());
  },
});
new client.Gauge({
  name: 'marketplace_mails_waiting',
  help: 'Mails waiting in the outbox to be sent (the same database for every process: the highest reading is kept)',
  registers: [metricsRegistry],
  aggregator: 'max',
  async collect() {
    let waiting = 0;
    try {
      for (const db of new Set([...sources].map((s) => s.db))) {
        const row = await db
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where((eb) => eb.or([eb('state', '=', WAITING), eb('state', 'is', null)]))
          .executeTakeFirst();
        waiting += Number(row?.n ?? 0);
      }
      this.set(waiting);
    } catch {
      // The database is unreachable (the readiness probe says so): the other metrics still answer.
    }
  },
});

const ASK = 'marketplace:metrics';
const ANSWER = 'marketplace:metrics:answer';

/** In the primary of several API processes: answers a process's question with every process's metrics. */
export function gatherClusterMetrics(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
    );
  });
}

let asked = 0;
const waiting = new Map<number, (answer: { text?: string; error?: string }) => void>();
if (cluster.isWorker) {
  // Answers the primary's gathering with this process's registry (prom-client's own messages).
  client.AggregatorRegistry.setRegistries([metricsRegistry]);
  new client.AggregatorRegistry();
  process.on('message', (message: { type?: string; id: number; text?: string; error?: string }) => {
    if (message?.type !== ANSWER) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
}

/** This process's metrics, or under WORKERS every process's, gathered by the primary. */
async function metricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return metricsRegistry.metrics();
  const id = ++asked;
  const answer = await new Promise<{ text?: string; error?: string }>((resolve) => {
    waiting.set(id, resolve);
    process.send!({ type: ASK, id });
  });
  if (answer.error !== undefined) throw new Error(answer.error);
  return answer.text!;
}

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

/** Records every answer and serves GET /metrics (only with the token). */
export async function metricsRoutes(app: FastifyInstance, opts: { token?: string } & Source): Promise<void> {
  const source: Source = { db: opts.db, connections: opts.connections };
  sources.add(source);
  app.addHook('onClose', async () => void sources.delete(source));
  app.addHook('onResponse', (request, reply, done) => {
    requests.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  const expected = opts.token ? digest(`Bearer ${opts.token}`) : undefined;
  app.get('/metrics', async (request, reply) => {
    if (!expected) return reply.code(404).send(envelope({ query: 'Metrics are off: set METRICS_TOKEN to read them' }));
    if (!crypto.timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .send(envelope({ query: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' }));
    }
    let text: string;
    try {
      text = await metricsText();
    } catch (error) {
      request.log.warn({ err: error }, 'metrics could not be gathered');
      return reply.code(503).send(envelope({ query: 'The metrics could not be gathered from every API process; try again' }));
    }
    return reply.header('Cache-Control', 'no-store').type(metricsRegistry.contentType).send(text);
  });
}
