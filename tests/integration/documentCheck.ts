/**
 * Holds the server to its API document: every answer of an API route (its status, its content type
 * and, for JSON, its body) and every request the server accepted (its JSON body) are checked
 * against the OpenAPI document the same app generates, with ajv (OpenAPI 3.1 schemas are JSON
 * Schema 2020-12). The harness gives every server it starts this check; a mismatch fails the test
 * whose request caused it.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ApiExchange } from '../../server/app';

type Json = Record<string, any>;

/** JSON pointer escaping of one segment ('/shop' → '~1shop'). */
const segment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** One ajv per distinct document (every server of a test file usually serves the same). */
const checkers = new Map<string, (pointer: string) => ValidateFunction>();

/** The same, by the document object itself (an app builds its document once). */
const byObject = new WeakMap<Json, (pointer: string) => ValidateFunction>();

function compilerFor(doc: Json): (pointer: string) => ValidateFunction {
  const known = byObject.get(doc);
  if (known) return known;
  const key = JSON.stringify(doc);
  let compile = checkers.get(key);
  if (!compile) {
    // strict off: the document is not itself a schema (openapi, paths, x-roles...).
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'api');
    const cache = new Map<string, ValidateFunction>();
    compile = (pointer) => {
      let fn = cache.get(pointer);
      if (!fn) {
        fn = ajv.compile({ $ref: `api#${pointer}` });
        cache.set(pointer, fn);
      }
      return fn;
    };
    checkers.set(key, compile);
  }
  byObject.set(doc, compile);
  return compile;
}

/** Follows a `$ref` to a component ('#/components/responses/BadRequest'): the object and its pointer. */
function resolve(doc: Json, node: Json, pointer: string): [Json, string] {
  if (typeof node?.$ref === 'string' && node.$ref.startsWith('#/')) {
    const target = node.$ref.slice(1);
    const found = target.split('/').slice(1).reduce<Json>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return [found, target];
  }
  return [node, pointer];
}

/** Whether an answer's media type is one the document lists ('image/*' matches 'image/png'). */
function mediaKey(content: Json, type: string): string | undefined {
  if (content[type]) return type;
  return Object.keys(content).find((k) => k === '*/*' || (k.endsWith('/*') && type.startsWith(k.slice(0, -1))));
}

const errorsOf = (fn: ValidateFunction) =>
  (fn.errors ?? []).slice(0, 6).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`).join('; ');

const text = (payload: unknown): string | undefined =>
  typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;

/**
 * What is wrong with one exchange by the document: undefined when it says exactly this, or the
 * reason. Answers of no route (the not-found answer) are not an operation's.
 */
export function mismatch(doc: Json, x: ApiExchange): string | undefined {
  if (!x.route) return undefined;
  const path = x.route.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}');
  const method = (x.method === 'HEAD' ? 'GET' : x.method).toLowerCase();
  const where = `${x.method} ${path} answering ${x.status}`;
  const opPointer = `/paths/${segment(path)}/${method}`;
  const op = doc.paths?.[path]?.[method];
  if (!op) return `${x.method} ${path} is not in the API document`;
  const compile = compilerFor(doc);

  const given = op.responses?.[x.status] ?? op.responses?.[`${String(x.status)[0]}XX`] ?? op.responses?.default;
  if (!given) return `${where}: the document lists no ${x.status} for it (it lists ${Object.keys(op.responses ?? {}).join(', ')})`;
  const [response, responsePointer] = resolve(doc, given, `${opPointer}/responses/${x.status}`);
  const body = text(x.payload);
  const type = x.type?.split(';')[0].trim().toLowerCase();
  if (x.method !== 'HEAD' && x.status !== 304 && (body === undefined || body.length > 0)) {
    if (!response.content) return `${where}: the document says it has no body, it sent ${type ?? 'one'}`;
    const key = type && mediaKey(response.content, type);
    if (!key) return `${where}: sent ${type ?? 'no content type'}, the document says ${Object.keys(response.content).join(', ')}`;
    if (/[/+]json$/.test(key) && body !== undefined && response.content[key].schema) {
      const fn = compile(`${responsePointer}/content/${segment(key)}/schema`);
      if (!fn(JSON.parse(body))) return `${where}: the answer breaks its schema: ${errorsOf(fn)}`;
    }
  }

  // A request the server accepted must be one the document allows.
  const requestType = x.requestType?.split(';')[0].trim().toLowerCase();
  if (x.status < 400 && requestType === 'application/json' && x.body !== undefined) {
    const problem = bodyProblem(doc, method, path, x.body);
    if (problem) return `${x.method} ${path} accepted a body the document refuses: ${problem} (body ${JSON.stringify(x.body).slice(0, 300)})`;
  }
  return undefined;
}

/** Why the document refuses a JSON body of an operation ('post', '/brand/status'), or undefined. */
export function bodyProblem(doc: Json, method: string, path: string, body: unknown): string | undefined {
  const schema = doc.paths?.[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
  // A call that takes no body ignores whatever is sent.
  if (!schema) return undefined;
  const fn = compilerFor(doc)(`/paths/${segment(path)}/${method}/requestBody/content/application~1json/schema`);
  return fn(body) ? undefined : errorsOf(fn);
}
