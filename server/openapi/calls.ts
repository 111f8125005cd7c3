/** The API document's operations of the calls that are not one entity's (contract/calls.ts, or a route's own description). */
import { type CallSpec } from '../../contract';
import { envelopeOf, errors, operation } from './operations';
import { inputSchema, pascal, ref, type Operation, type Schema } from './schemas';

/** A call's schema as written in contract/calls.ts: `{record: 'shops'}` names an entity's record. */
function callSchema(schema: Readonly<Record<string, unknown>>): Schema {
  return JSON.parse(JSON.stringify(schema), (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Schema).record === 'string' && Object.keys(v).length === 1) {
      return ref(pascal((v as { record: string }).record));
    }
    return v;
  }) as Schema;
}

export function callOperation(call: CallSpec): Operation {
  const answers = call.answers ?? 'envelope';
  const types = call.types ?? (answers === 'html' ? ['text/html'] : answers === 'events' ? ['text/event-stream'] : ['application/octet-stream']);
  const ok =
    answers === 'envelope'
      ? { 200: envelopeOf(call.detail && callSchema(call.detail), call.hll && callSchema(call.hll), 'The envelope', call.extra && callSchema(call.extra)) }
      : answers === 'json'
        ? { 200: { description: 'A JSON document', content: { 'application/json': { schema: { type: 'object' } } } } }
        : {
            200: {
              description: answers === 'html' ? 'An HTML page' : answers === 'events' ? 'A stream of server-sent events' : 'The file',
              content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', ...(answers === 'file' ? { contentMediaType: t } : {}) } }])),
            },
          };
  const params = [
    ...[...call.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string', maxLength: 255 } })),
    ...Object.entries(call.query ?? {}).map(([name, q]) => ({ name, in: 'query', description: q.description, schema: { type: 'string', maxLength: 255 } })),
  ];
  const who = call.who ?? (call.roles.includes('anyone') ? 'Anyone.' : call.roles.join(', '));
  const body = call.method !== 'GET';
  return operation({
    id: call.path.replace(/[^\w]+/g, '_').replace(/^_|_$/g, '') || 'root',
    tag: call.operations ? 'operations' : call.extension ? 'extensions' : 'calls',
    summary: call.summary,
    roles: call.roles,
    who: who.endsWith('.') ? who : `${who}.`,
    extension: call.extension,
    body: call.body ? inputSchema(call.body, true) : undefined,
    multipart: call.multipart ? inputSchema(call.multipart, true) : undefined,
    parameters: params.length ? params : undefined,
    ok,
    errors: errors({ body, extra: [...(call.path.includes('{') ? [404] : []), ...(call.operations ? [503] : [])], fails: call.fails }),
  });
}
