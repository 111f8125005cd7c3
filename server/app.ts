/**
 * The reference API server: the contract under /api, the built console at '/'.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { CALLS, envelope, type Registry } from '../contract';
import { oneReading } from './db';
import { resolveCaller, sessionTime } from './auth';
import { callGate } from './guard';
import { registry as defaultRegistry } from './registry';
import { ApiError, unsupported } from './errors';
import { BODY_LIMITS, jsonDepth, jsonProblem } from './limits';
import { OneLinePerRequest, requestIds } from './logging';
import { consoleHeaders } from './headers';
import { COMPRESSION, keptEncoding } from './compression';
import { guardConnections } from './connections';
import { answerClientError } from './clientErrors';
import { DEFAULT_LIMITS, Throttle, addressKey, createLimitOf, creatorKey, type Limit } from './throttle';
import { FASTIFY_MESSAGES, bodyOf, failure, type AppContext, type Context } from './context';
import { API_PREFIX } from './config';
import { directoryRoutes, findPlaceRoutes } from './routes/directory';
import { catalogueRoutes } from './routes/catalogue';
import { quoteRoutes } from './routes/quote';
import { myRequestRoutes } from './routes/myRequests';
import { geoRoutes } from './routes/geo';
import { entityRoutes } from './routes/entities';
import { restRoutes } from './routes/rest';
import { apiDocumentOf, openApiRoutes } from './routes/openapi';
import { fileRoutes } from './routes/files';
import { packageRoutes } from './routes/packages';
import { mailRoutes } from './routes/mails';
import { ledgerRoutes } from './routes/ledger';
import { searchRoutes } from './routes/search';
import { sessionRoutes, signInRoutes } from './routes/sessions';
import { shopRoutes } from './routes/shops';
import { dashboardRoutes } from './routes/dashboard';
import { chatRoutes } from './routes/chat';
import { userRoutes } from './routes/users';
import { secondFactorRoutes } from './routes/secondFactor';
import { enrolmentGate } from './secondFactorPolicy';
import { healthRoutes } from './ops/health';
import { metricsRoutes } from './ops/metrics';
import { closeConnectionsWhileStopping } from './ops/shutdown';
import { openFileStore } from './storage';
import { withServerWords } from './words';




/** The gates of the calls that are not an entity's, by 'METHOD /api/path' (path parameters as `:name`). */
const CALL_GATES = new Map(CALLS.map((call) => [`${call.method} /api${call.path.replace(/\{(\w+)\}/g, ':$1')}`, callGate(call)]));

/**
 * Writes an anonymous caller may make, from the contract's rules, as 'METHOD /api/path': the save
 * and status calls, and the REST face's POST, PUT and DELETE of the same entities.
 */
const publicWrites = (registry: Registry) =>
  new Set(
    registry.entities.flatMap((e) => {
      const create = e.rules.create === 'public';
      const update = e.rules.update === 'public';
      return [
        ...(create || update ? [`POST ${API_PREFIX}${e.save}`] : []),
        ...(update ? [`POST ${API_PREFIX}${e.status}`, `PUT ${API_PREFIX}/rest/${e.name}/:id`, `DELETE ${API_PREFIX}/rest/${e.name}/:id`] : []),
        ...(create ? [`POST ${API_PREFIX}/rest/${e.name}`] : []),
      ];
    }),
  );

/**
 * Calls that make a new record, from the contract's rules, as 'METHOD /api/path' with the limit a
 * signed-in caller's new record counts against: each entity's save (`save`: a create only when the
 * body has no id) and the REST face's POST, where someone other than an admin may create.
 */
const createCalls = (registry: Registry) =>
  new Map<string, { limit: 'userCreate' | 'ownerCreate'; save: boolean }>(
    registry.entities.flatMap((e) => {
      const limit = createLimitOf(e.rules.create);
      return limit ? [[`POST ${API_PREFIX}${e.save}`, { limit, save: true }], [`POST ${API_PREFIX}/rest/${e.name}`, { limit, save: false }]] : [];
    }),
  );

/** An id that names a record: a save without one creates. */
const namesRecord = (id: unknown) => id !== undefined && id !== null && id !== '' && id !== 0;

export { bodyOf, failure, type AppContext, type Context } from './context';

/**
 * Content-hashed build files under /assets never change: cached for a year. Everything else
 * (index.html, config.json) is revalidated on every load, so a new build or setting shows at once.
 */
export function cacheControlFor(root: string, file: string): string {
  const relative = path.relative(root, file).split(path.sep);
  return relative[0] === 'assets' && relative.length > 1 ? 'public, max-age=31536000, immutable' : 'no-cache';
}


/**
 * Fastify's trust of X-Forwarded-* from TRUST_PROXY: n proxies in front trusts the n nearest hops
 * (the socket's peer is hop 0); addresses trust those peers wherever they stand; nothing trusts none.
 */
export function trustedProxies(given: number | string | undefined): false | string | ((address: string, hop: number) => boolean) {
  if (typeof given === 'number') return given > 0 ? (_address, hop) => hop < given : false;
  return given ? given : false;
}

export interface AppOptions {
  staticDir?: string;
  /** Off unless given (tests); the server passes `loggerOptions(LOG_LEVEL)`. */
  logger?: FastifyServerOptions['logger'];
  /**
   * The proxies in front (TRUST_PROXY): how many, or their addresses (IPs, CIDR ranges). A client's
   * address is read from X-Forwarded-For past them only, so an entry the client wrote itself is
   * never taken for its address (trusting every hop would).
   */
  trustProxy?: number | string;
  timeouts?: Partial<Timeouts>;
  /**
   * Shown every answer of an API route, with the request as it was accepted (the tests hold each
   * to the API document); off unless given.
   */
  onAnswer?: (answer: ApiExchange) => void;
}

/** One request to an API route and the server's answer, as `onAnswer` sees them. */
export interface ApiExchange {
  method: string;
  /** The route's path as registered ('/api/rest/shops/:id'); undefined when no route matched. */
  route: string | undefined;
  /** The JSON body as parsed (before any handler saw it), or undefined. */
  body: unknown;
  requestType: string | undefined;
  status: number;
  type: string | undefined;
  /** The answer as sent: a text or bytes, or a stream (a file) not read here. */
  payload: unknown;
}

/** How long a connection may take, in ms: slow or idle clients are cut off. */
export interface Timeouts {
  /** The whole request, body included (a 1-byte/s upload ends here). */
  request: number;
  /** The request's headers. */
  headers: number;
  /** A socket with no traffic at all (an event stream's heartbeats must come more often). */
  idle: number;
  /** A new connection's first request headers, counted from when it opens (server/connections.ts). */
  opening: number;
  /** An idle keep-alive connection between requests. */
  keepAlive: number;
  /** How often Node checks the request and header timeouts. */
  checkEvery: number;
  /** Requests one keep-alive connection may carry. */
  maxRequestsPerSocket: number;
  /** Connections one client address may hold open at once (0: no limit). */
  connectionsPerAddress: number;
  /** How long the rest of a refused upload's body is read and thrown away before its socket is dropped. */
  linger: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  request: 120_000, headers: 15_000, idle: 30_000, opening: 10_000, keepAlive: 5_000, checkEvery: 5_000, maxRequestsPerSocket: 1000,
  connectionsPerAddress: 100, linger: 2_000,
};

export async function buildApp(given: Context, opts: AppOptions = {}): Promise<FastifyInstance> {
  const throttle = given.throttle ?? new Throttle(given.db, given.limits ?? DEFAULT_LIMITS, given.clock);
  const registry = given.registry ?? defaultRegistry;
  const files = openFileStore(given.config);
  const ctx: AppContext = { ...given, throttle, registry, files, services: new Map(), routes: [] };
  const anonymousWrites = publicWrites(registry);
  const creates = createCalls(registry);
  /** The create counted for a request, taken back when the request makes no record. */
  const counted = new WeakMap<FastifyRequest, [string, Limit]>();
  const t = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const app = Fastify({
    logger: opts.logger ?? false,
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    // Routes are built from the registry at start; on a loaded machine that can take more than Fastify's 10 s.
    pluginTimeout: 60_000,
    genReqId: requestIds(),
    trustProxy: trustedProxies(opts.trustProxy),
    requestTimeout: t.request,
    connectionTimeout: t.idle,
    keepAliveTimeout: t.keepAlive,
    maxRequestsPerSocket: t.maxRequestsPerSocket,
    // A malformed address (a stray '%') answers in the envelope too.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(envelope({ query: error.code === 'FST_ERR_BAD_URL' ? 'The address is not valid' : 'The request is not valid' }));
    },
    // What Node refuses before routing (headers over 16 kB, a request it cannot parse, one too slow to
    // arrive) is answered in the envelope too, with Node's own status (431, 400, 408).
    clientErrorHandler: answerClientError(ctx.config.strict, t.linger),
    http: { headersTimeout: Math.min(t.headers, t.request), requestTimeout: t.request, connectionsCheckingInterval: t.checkEvery },
  });
  guardConnections(app, t);
  // Outside strict mode an envelope whose query is a known server text names its message key and
  // values (i18n/server.ts), so a console shows it in the viewer's language.
  if (!ctx.config.strict) app.addHook('preSerialization', (_request, _reply, payload, done) => done(null, withServerWords(payload)));
  const onAnswer = opts.onAnswer;
  if (onAnswer) {
    // First of the onSend hooks: the answer before it is compressed.
    const accepted = new WeakMap<FastifyRequest, unknown>();
    app.addHook('preValidation', async (request) => void accepted.set(request, structuredClone(request.body)));
    app.addHook('onSend', async (request, reply, payload) => {
      if (!request.url.startsWith('/api/')) return payload;
      onAnswer({
        method: request.method, route: request.routeOptions.url, body: accepted.get(request), requestType: request.headers['content-type'],
        status: reply.statusCode, type: reply.getHeader('content-type') as string | undefined, payload,
      });
      return payload;
    });
  }

  // Legacy clients post some lists with no body at all: read an empty JSON body as {}.
  app.removeContentTypeParser('application/json');
  // A body that cannot be read is answered after the route's gate (authorization before validation).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const refuse = (problem: string) => {
      request.bodyProblem = new ApiError(400, problem);
      done(null, {});
    };
    if (text === '' || text === undefined) return done(null, {});
    // Depth first, on the raw text: a body nested thousands deep never reaches JSON.parse.
    if (jsonDepth(text as string, BODY_LIMITS.depth) > BODY_LIMITS.depth) {
      return refuse(`The request body is nested too deeply (at most ${BODY_LIMITS.depth} levels)`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text as string);
    } catch {
      return refuse(FASTIFY_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return refuse('The request body must be a JSON object');
    const problem = jsonProblem(parsed, BODY_LIMITS);
    if (problem) return refuse(problem);
    done(null, parsed);
  });
  // Answers over 1 kB are compressed (brotli or gzip, as the client accepts); a kept answer once per
  // encoding (compression.ts); the console's files are served pre-compressed from the build.
  app.addHook('onSend', keptEncoding);
  await app.register(compress, {
    global: true, threshold: COMPRESSION.threshold, syncThreshold: COMPRESSION.syncThreshold, encodings: [...COMPRESSION.encodings], brotliOptions: { params: COMPRESSION.brotli },
  });
  // Multipart is parsed by the routes that take it, as a stream (files go to disk, never to memory);
  // any other call with a body refuses a multipart one before reading it (a GET has none to refuse).
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 4, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
  app.addHook('onClose', () => files.close());
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && /^multipart\//i.test(request.headers['content-type'] ?? '') && request.routeOptions.url && !request.routeOptions.config?.multipart) {
      return done(unsupported('This call takes a JSON body; only the users call and the uploads take a multipart form'));
    }
    done();
  });

  // Every answer is measured; GET /metrics (with METRICS_TOKEN) reads the numbers.
  await metricsRoutes(app, { db: ctx.db, connections: ctx.ops?.connections, token: ctx.ops?.metricsToken });
  closeConnectionsWhileStopping(app, ctx.ops?.stopping);

  // A request reads the database's generation (what answers are kept under) once: db/generation.ts.
  app.addHook('preHandler', (_request, _reply, done) => oneReading(done));

  const pageHeaders = opts.staticDir ? consoleHeaders(opts.staticDir) : {};
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Request-Id', request.id);
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/directory/') && !request.url.startsWith('/geo/')) reply.headers(pageHeaders);
    done(null, payload);
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const { code, headers, query, detail } = failure(error, request);
    return reply.code(code).headers(headers).send(envelope({ query, detail: detail ?? null }));
  });

  await app.register(
    async (api) => {
      api.decorateRequest('caller', null);
      api.addHook('onRoute', (route) => {
        // Every route says who may call it; a route that does not is a mistake caught at start-up.
        const method = [route.method].flat().find((m) => m !== 'HEAD') ?? 'GET';
        const call = route.config?.call;
        const gate = route.config?.gate ?? (call ? callGate(call) : CALL_GATES.get(`${method} ${route.url}`));
        if (!gate) throw new Error(`${method} ${route.url} has no gate: describe it in contract/calls.ts, give the route its call (config.call) or a gate`);
        route.config = { ...route.config, gate };
        for (const one of [route.method].flat()) if (one !== 'HEAD') ctx.routes.push({ method: one, url: route.url, roles: gate.roles, call });
      });
      api.addHook('preHandler', async (request) => {
        request.caller = await resolveCaller(ctx.db, request.headers.authorization, sessionTime(ctx));
        // ADMIN_SECOND_FACTOR=required: an admin without a second factor may only set one up.
        enrolmentGate(ctx.config, request.caller, request.routeOptions.url ?? '');
        // Who may call comes first: a refused caller learns nothing of the body's rules.
        request.routeOptions.config.gate?.(request.caller, bodyOf(request));
        // Writes anyone may make without a session (a visitor opening a chat) are limited per address.
        // A new record counts against anonymousWrite; a visitor's message to their own chat (a save
        // with an id, or a REST PUT) against the looser anonymousReply.
        const call = `${request.method} ${request.routeOptions.url ?? ''}`;
        if (!request.caller && anonymousWrites.has(call)) {
          const id = request.method === 'PUT' ? (request.params as { id?: unknown }).id : bodyOf(request).id;
          await throttle.take([
            namesRecord(id)
              ? [addressKey('anonymous-reply', request.ip), throttle.limits.anonymousReply]
              : [addressKey('anonymous-write', request.ip), throttle.limits.anonymousWrite],
          ]);
        }
        // A signed-in user's new records are limited per user (admins, who manage the data, never):
        // what any user may file against userCreate, a seller's own shops and catalogue against the
        // looser ownerCreate. Counted before the record is made (concurrent creates cannot pass the
        // limit together) and taken back when the call makes none (onSend below).
        const create = creates.get(call);
        if (create && request.caller && request.caller.role !== 'admin' && !(create.save && namesRecord(bodyOf(request).id))) {
          const counts: [string, Limit] = [creatorKey(create.limit, request.caller.id), throttle.limits[create.limit]];
          await throttle.take([counts]);
          counted.set(request, counts);
        }
        if (request.bodyProblem) throw request.bodyProblem;
      });
      // Taken back before the answer leaves, so the caller's next call already sees it.
      api.addHook('onSend', async (request, reply, payload) => {
        const counts = counted.get(request);
        if (counts && reply.statusCode >= 300) {
          counted.delete(request);
          await throttle.undo([counts]).catch((error: unknown) => request.log.warn({ err: error }, 'a refused create could not be taken back'));
        }
        return payload;
      });
      await healthRoutes(api, ctx);
      await signInRoutes(api, ctx);
      await userRoutes(api, ctx);
      await shopRoutes(api, ctx);
      await secondFactorRoutes(api, ctx);
      await entityRoutes(api, ctx);
      await searchRoutes(api, ctx);
      await dashboardRoutes(api, ctx);
      await chatRoutes(api, ctx);
      await findPlaceRoutes(api, ctx);
      await fileRoutes(api, ctx);
      await packageRoutes(api, ctx);
      await mailRoutes(api, ctx);
      await ledgerRoutes(api, ctx);
      await sessionRoutes(api, ctx);
      await catalogueRoutes(api, ctx);
      await quoteRoutes(api, ctx);
      await myRequestRoutes(api, ctx);
      await restRoutes(api, ctx);
      await openApiRoutes(api, ctx);
      api.setNotFoundHandler((request, reply) => {
        const query = `There is no ${request.method} ${request.url.split('?')[0].replace(/^\/api/, '')} endpoint`;
        // The REST face's answers also carry the text as `message` (what react-admin shows).
        const rest = !ctx.config.strict && request.url.startsWith('/api/rest/');
        return reply.code(404).send({ ...envelope({ query }), ...(rest ? { message: query } : {}) });
      });
    },
    { prefix: API_PREFIX },
  );

  app.decorate('apiDocument', apiDocumentOf(ctx));
  app.decorate('apiRoutes', () => ctx.routes);

  // Offline stand-in for the external country/state/city directory (DESIGN D10): outside /api, so
  // strict contract mode keeps it.
  await app.register(directoryRoutes, { prefix: '/directory', key: ctx.config.directoryKey });
  await app.register(geoRoutes, { prefix: '/geo' });

  const staticDir = opts.staticDir;
  const dialect = ctx.config.dataDialect;
  if (staticDir && dialect) {
    // DATA_DIALECT chooses the console's data dialect over what the built config.json says.
    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' || request.url.split('?')[0] !== '/config.json') return;
      let file: Record<string, unknown> = {};
      try {
        file = JSON.parse(fs.readFileSync(path.join(staticDir, 'config.json'), 'utf8')) as Record<string, unknown>;
      } catch {
        // No config.json in the build: the console's defaults with the dialect.
      }
      return reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send({ ...file, dataDialect: dialect });
    });
  }
  if (staticDir && fs.existsSync(path.join(staticDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('Cache-Control', cacheControlFor(staticDir, file));
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
    // Every console route is answered by the single-page app; a build file that is not there is not
    // (a page of an earlier build asking for its own files is told they are gone, not sent the page).
    app.setNotFoundHandler((request, reply) => {
      if (request.method !== 'GET' || request.url.startsWith('/assets/')) return reply.code(404).send(envelope({ query: 'Not found' }));
      return reply.sendFile('index.html');
    });
  }
  return app;
}
