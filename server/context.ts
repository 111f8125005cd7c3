/**
 * What the routes share with the app that registers them: the context they receive, the request's
 * body, and what an error answers. Apart from server/app.ts so the routes never import the app (no
 * import circle).
 */
import type { FastifyRequest } from 'fastify';
import type { CallRole, CallSpec, Registry } from '../contract';
import type { UploadPolicy } from './attachments';
import type { Caller } from './auth';
import type { DataDialect, ServerConfig } from './config';
import type { Database } from './db';
import { ApiError } from './errors';
import type { Gate } from './guard';
import type { OpsContext } from './ops/health';
import type { EntityService } from './routes/entities';
import type { FileStore } from './storage';
import type { Limits, Throttle } from './throttle';

export interface Context {
  db: Database['db'];
  /** The resource files the server serves; the ones under resources/ unless a test brings its own. */
  registry?: Registry;
  /**
   * dataDir: where uploaded files live (a temporary folder when not given), or their incoming folder
   * when filesBucket names an S3-compatible bucket (server/storage.ts).
   */
  config: Pick<ServerConfig, 'strict' | 'publicUrl' | 'demo' | 'directoryKey'>
    & Partial<Pick<ServerConfig, 'orderHoldMinutes' | 'orderMaxPerBuyer' | 'payoutHoldDays' | 'filesBucket' | 'filesPathStyle' | 'mfaKey' | 'adminSecondFactor' | 'sellerSecondFactor' | 'sessionIdleMinutes' | 'breachedPasswordsUrl'>>
    & { dataDir?: string; dataDialect?: DataDialect; uploads?: Partial<UploadPolicy> };
  /** Attempt limits (sign-in, reset, registration, anonymous writes) and the clock they count by. */
  limits?: Limits;
  clock?: () => number;
  /** Built from limits and clock when not given. */
  throttle?: Throttle;
  /** The operator's side: connections for the metrics, METRICS_TOKEN, whether the process is stopping. */
  ops?: OpsContext;
}

/**
 * The context the routes receive: the registry resolved, and each entity's operations (filled by
 * the routes that own them, read by the REST face and the API description).
 */
export type AppContext = Context & {
  registry: Registry;
  /** Where uploaded files are stored (the local folder or the bucket), closed with the app. */
  files: FileStore;
  services: Map<string, EntityService>;
  /** Every API route as registered (method and path under /api), for the API description. */
  routes: { method: string; url: string; roles?: readonly CallRole[]; call?: CallSpec }[];
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's OpenAPI document, generated from the contract and the routes registered (server/openapi/). */
    apiDocument(): Record<string, unknown>;
    /** Every API route as registered (method, path under /api as Fastify writes it, who may call). */
    apiRoutes(): readonly { method: string; url: string; roles?: readonly CallRole[] }[];
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** What was wrong with the JSON body: answered once the gate has let the caller through. */
    bodyProblem?: ApiError;
  }
  interface FastifyContextConfig {
    /** This route takes a multipart form (the users call and the uploads); every other keeps JSON. */
    multipart?: boolean;
    /** Who may call (server/guard.ts): an entity's routes give theirs, other calls' come from contract/calls.ts. */
    gate?: Gate;
    /**
     * The call's description (as in contract/calls.ts) carried by the route itself: its gate and its
     * part of the API document both come from it.
     */
    call?: CallSpec;
  }
}

/** The request body as an object; an empty body reads as {}. */
export const bodyOf = (request: FastifyRequest): Record<string, unknown> =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
    ? (request.body as Record<string, unknown>)
    : {};

export const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request must be sent as JSON or as a multipart form',
  FST_REQ_FILE_TOO_LARGE: 'The file is too large',
  FST_PARTS_LIMIT: 'Too many parts in the form',
  FST_FILES_LIMIT: 'Too many files in the form',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length',
  // Node's own error when the client goes away while its body is read ('aborted').
  ECONNRESET: 'The request was cut off before its body arrived',
};

/** What an error answers: its HTTP status, headers and readable text (logged when it is the server's fault). */
export function failure(error: Error & { statusCode?: number; code?: string }, request: FastifyRequest) {
  if (error instanceof ApiError) return { code: error.statusCode, headers: error.headers, query: error.message, detail: error.detail };
  const known = error.code && FASTIFY_MESSAGES[error.code];
  if (known || (error.statusCode && error.statusCode < 500)) {
    return { code: error.statusCode ?? 400, headers: {}, query: known || error.message };
  }
  request.log.error({ err: error, reqId: request.id }, 'request failed');
  return { code: 500, headers: {}, query: `Something went wrong on the server; please try again (request ${request.id})` };
}
