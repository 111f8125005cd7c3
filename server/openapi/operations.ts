/** The API document's operations: who may call, the error answers and the envelope of a success. */
import { type CallRole, type EntityContract, type Fails, type Rule } from '../../contract';
import { ref, response, type Operation, type Schema } from './schemas';

export function whoOf(rule: Rule, entity: EntityContract, read = false): string {
  switch (rule) {
    case 'public':
      return 'Anyone, signed in or not.';
    case 'user':
      return 'Any signed-in user.';
    case 'owner':
      return `An admin holding the '${entity.access}' access; a seller (or an admin without it) on their own records${
        read && entity.buyerKey ? `; a buyer reads the records naming them as ${entity.buyerKey}` : ''
      }.`;
    case 'admin':
      return `An admin holding the '${entity.access}' access.`;
    case 'none':
      return 'Nobody.';
  }
}

export const security = (roles: readonly CallRole[]) => (roles.includes('anyone') ? [{}, { bearer: [] }] : [{ bearer: [] }]);

/** The error answers, by status: a component each (its envelope, `status: false`). */
export const ERROR_RESPONSES: Record<number, [string, string]> = {
  400: ['BadRequest', 'The request is not valid; query says why'],
  401: ['Unauthorized', 'No session where one is needed, or the token sent is unknown or has ended'],
  403: ['Forbidden', 'The caller may not do this (an admin or seller who must set up a second factor may do nothing else first)'],
  404: ['NotFound', "No such record (or not the caller's)"],
  409: ['Conflict', 'A unique value is taken, or other records still use this one'],
  413: ['TooLarge', 'The request body (or a file) is too large'],
  415: ['Unsupported', 'The body is not of a kind this call takes (a multipart form where JSON is taken)'],
  429: ['TooManyRequests', 'Too many attempts; Retry-After says when to try again'],
  503: ['Unavailable', 'Not ready to serve (the database, the storage, or the process stopping); query says why'],
};

/**
 * Every error an operation answers: 400, 401 and 403 always; 413 and 415 for a call that takes a
 * body; the statuses given (`extra`), and those given with their reason (`fails`).
 */
export function errors(opts: { body: boolean; extra?: readonly number[]; fails?: Fails }): Record<string, unknown> {
  // 401 everywhere: a token that is unknown or has ended is refused even where no session is needed.
  // 403 everywhere too: where anyone may call, an admin or seller who must first set up a second
  // factor (ADMIN_SECOND_FACTOR, SELLER_SECOND_FACTOR) is still refused with their token.
  const reasons: Partial<Record<number, string>> = opts.fails ?? {};
  const codes = new Set<number>([400, 401, 403, ...(opts.body ? [413, 415] : []), ...(opts.extra ?? []), ...Object.keys(reasons).map(Number)]);
  return Object.fromEntries(
    [...codes].sort().map((code) => [String(code), reasons[code] ? errorResponse(reasons[code], code) : response(ERROR_RESPONSES[code][0])]),
  );
}

export function operation(parts: {
  id: string; summary: string; tag: string; roles: readonly CallRole[]; who: string; extension?: boolean;
  body?: Schema; multipart?: Schema; ok: Record<string, unknown>; errors: Record<string, unknown>; parameters?: unknown[];
}): Operation {
  return {
    operationId: parts.id,
    summary: parts.summary,
    description: `Who may call: ${parts.who}${parts.extension ? '\n\nAn extension of the contract: absent (404) in strict contract mode.' : ''}`,
    tags: [parts.tag],
    'x-roles': parts.roles,
    ...(parts.extension ? { 'x-extension': true } : {}),
    security: security(parts.roles),
    ...(parts.parameters ? { parameters: parts.parameters } : {}),
    ...(parts.body || parts.multipart
      ? {
          requestBody: {
            required: true,
            content: {
              ...(parts.body ? { 'application/json': { schema: parts.body } } : {}),
              ...(parts.multipart ? { 'multipart/form-data': { schema: parts.multipart } } : {}),
            },
          },
        }
      : {}),
    responses: { ...parts.ok, ...parts.errors },
  };
}

export const envelopeOf = (detail: Schema | undefined, hll: Schema | undefined, description: string, extra: Schema = {}) => ({
  description,
  content: {
    'application/json': {
      schema: {
        allOf: [
          ref('Envelope'),
          {
            type: 'object',
            properties: {
              status: { const: true }, detail: detail ?? { type: 'null' }, HLL: hll ?? { type: 'null' }, ...extra,
            },
          },
        ],
        unevaluatedProperties: false,
      },
    },
  },
});
/** When to try again after a 429, in seconds. */
const RETRY_AFTER = { 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait before trying again' } };

/** An error answer: the envelope (`status: false`), with Retry-After on a 429. */
export const errorResponse = (description: string, code?: number) => ({
  description,
  ...(code === 429 ? { headers: RETRY_AFTER } : {}),
  content: { 'application/json': { schema: ref('Error') } },
});
