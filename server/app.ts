/**
 * The reference API server: the contract under /api, the built console at '/'.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { envelope } from '../contract';
import type { Database } from './db';
import type { ServerConfig } from './config';
import { resolveCaller, type Caller } from './auth';
import { ApiError } from './errors';
import { directoryRoutes, findPlaceRoutes } from './routes/directory';
import { entityRoutes } from './routes/entities';
import { searchRoutes } from './routes/search';
import { userRoutes } from './routes/users';

export interface Context {
  db: Database['db'];
  config: Pick<ServerConfig, 'strict' | 'publicUrl' | 'demo' | 'directoryKey'>;
  /** Called with every mail the server writes to its outbox. */
  onMail?: (mail: { to: string; subject: string; body: string }) => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** The request body as an object; an empty body reads as {}. */
export const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
    ? (request.body as Record<string, unknown>)
    : {};

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request must be sent as JSON or as a multipart form',
  FST_REQ_FILE_TOO_LARGE: 'The file is too large',
  FST_PARTS_LIMIT: 'Too many parts in the form',
  FST_FILES_LIMIT: 'Too many files in the form',
};

/**
 * Content-hashed build files under /assets never change: cached for a year. Everything else
 * (index.html, config.json) is revalidated on every load, so a new build or setting shows at once.
 */
export function cacheControlFor(root: string, file: string): string {
  const relative = path.relative(root, file).split(path.sep);
  return relative[0] === 'assets' && relative.length > 1 ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export async function buildApp(ctx: Context, opts: { staticDir?: string; logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: 1024 * 1024 });

  // Legacy clients post some lists with no body at all: read an empty JSON body as {}.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
    if (text === '' || text === undefined) return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text as string);
    } catch {
      return done(new ApiError(400, FASTIFY_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY), undefined);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return done(new ApiError(400, 'The request body must be a JSON object'), undefined);
    }
    done(null, parsed);
  });
  // Answers over 1 kB are compressed (brotli or gzip, as the client accepts); the console's files
  // are served pre-compressed from the build (see serveConsole).
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 10 * 1024 * 1024, files: 4, fields: 50 } });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.statusCode).send(envelope({ query: error.message }));
    const known = error.code && FASTIFY_MESSAGES[error.code];
    if (known || (error.statusCode && error.statusCode < 500)) {
      return reply.code(error.statusCode ?? 400).send(envelope({ query: known || error.message }));
    }
    request.log.error(error);
    return reply.code(500).send(envelope({ query: 'Something went wrong on the server; please try again' }));
  });

  await app.register(
    async (api) => {
      api.decorateRequest('caller', null);
      api.addHook('preHandler', async (request) => {
        request.caller = await resolveCaller(ctx.db, request.headers.authorization);
      });
      await userRoutes(api, ctx);
      await entityRoutes(api, ctx);
      await searchRoutes(api, ctx);
      await findPlaceRoutes(api, ctx);
      api.setNotFoundHandler((request, reply) =>
        reply.code(404).send(envelope({ query: `There is no ${request.method} ${request.url.replace(/^\/api/, '')} endpoint` })),
      );
    },
    { prefix: '/api' },
  );

  // Offline stand-in for the external country/state/city directory (DESIGN D10): outside /api, so
  // strict contract mode keeps it.
  await app.register(directoryRoutes, { prefix: '/directory', key: ctx.config.directoryKey });

  const staticDir = opts.staticDir;
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
    // Every console route is answered by the single-page app.
    app.setNotFoundHandler((request, reply) => {
      if (request.method !== 'GET') return reply.code(404).send(envelope({ query: 'Not found' }));
      return reply.sendFile('index.html');
    });
  }
  return app;
}
