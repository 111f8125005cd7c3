/**
 * Payloads in, answers out, for any entity of the contract: `readPayload` validates a payload
 * against the entity's field list (types, lengths, required flags, allowed values) and flattens its
 * nested groups into columns; `present` turns a row back into the wire shape.
 */
import { limitsOf, matchesPattern, patternProblem, type EntityContract, type FieldSpec } from '../contract';
import { badRequest } from './errors';
import { FIELD_LIMITS, jsonProblem } from './limits';
import type { Row } from './db';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A calendar date, 'YYYY-MM-DD', optionally with a time: the date must exist. */
function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+Z?)?$/.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]);
}

export const label = (name: string) => name.replace(/_/g, ' ');

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of a field in a payload: top level first, then its nested group, unwrapped. */
function pick(payload: Record<string, unknown>, name: string, field: FieldSpec): unknown {
  let value = payload[name];
  if (value === undefined && field.group && isObject(payload[field.group])) {
    value = (payload[field.group] as Record<string, unknown>)[name];
  }
  if (field.wrap && isObject(value)) value = value[field.wrap];
  return value;
}

/** Checks one value against its field; returns the column value or an error text. */
export function coerce(name: string, field: FieldSpec, value: unknown): { ok: unknown } | { error: string } {
  const what = label(name);
  if (value === null) return { ok: null };
  switch (field.type) {
    case 'string':
    case 'email':
    case 'date':
    case 'text': {
      if (typeof value !== 'string' && typeof value !== 'number') return { error: `${what} must be text` };
      const text = String(value).trim();
      const { minLength = 0, maxLength = Infinity } = limitsOf(field);
      if (text.length > maxLength) return { error: `${what} must be at most ${maxLength} characters` };
      if (text !== '' && text.length < minLength) {
        return { error: `${what} must be at least ${minLength} characters` };
      }
      if (field.type === 'date' && text !== '' && !isDate(text)) return { error: `${what} must be a date such as 2026-12-31` };
      if (field.type === 'email' && text !== '' && !EMAIL.test(text)) return { error: `${what} must be an email address` };
      if (field.pattern && text !== '' && !matchesPattern(field, text)) return { error: patternProblem(what, field.pattern) };
      if (field.oneOf && text !== '' && !field.oneOf.includes(text)) {
        return { error: `${what} must be one of: ${field.oneOf.join(', ')}` };
      }
      // A cleared field is stored as nothing (null), as numbers are, whatever its kind (DESIGN D13).
      return { ok: text === '' ? null : text };
    }
    case 'int':
    case 'number': {
      if (value === '') return { ok: null };
      const num = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(num)) return { error: `${what} must be a number` };
      if (field.type === 'int' && !Number.isInteger(num)) return { error: `${what} must be a whole number` };
      const { minimum = -Infinity, maximum = Infinity } = limitsOf(field);
      if (num < minimum) return { error: `${what} must be at least ${minimum}` };
      if (num > maximum) return { error: `${what} must be at most ${maximum}` };
      if (field.oneOf && !field.oneOf.includes(num)) return { error: `${what} must be one of: ${field.oneOf.join(', ')}` };
      return { ok: num };
    }
    case 'bool': {
      if (value === true || value === 1 || value === '1' || value === 'true') return { ok: 1 };
      if (value === false || value === 0 || value === '0' || value === 'false') return { ok: 0 };
      return { error: `${what} must be true or false` };
    }
    case 'json': {
      const problem = jsonProblem(value, FIELD_LIMITS, what);
      if (problem) return { error: problem };
      const text = JSON.stringify(value);
      if (text.length > (limitsOf(field).maxLength ?? Infinity)) return { error: `${what} is too large` };
      return { ok: text };
    }
  }
}

export interface ReadOptions {
  /** A new record: required fields must be present. */
  create: boolean;
  /** Only these fields are read (a status call's fields); all writable fields otherwise. */
  only?: readonly string[];
}

/** Validates a payload and returns the columns it sets; throws 400 with every problem named. */
export function readPayload(entity: EntityContract, payload: unknown, opts: ReadOptions): Row {
  if (!isObject(payload)) throw badRequest('The request body must be a JSON object');
  const out: Row = {};
  const errors: string[] = [];
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.serverSet || (opts.only && !opts.only.includes(name))) continue;
    const value = pick(payload, name, field);
    if (value === undefined) {
      if (opts.create && field.required) errors.push(`${label(name)} is required`);
      continue;
    }
    const result = coerce(name, field, value);
    if ('error' in result) errors.push(result.error);
    else if (field.required && (result.ok === null || result.ok === '')) errors.push(`${label(name)} is required`);
    else out[name] = result.ok;
  }
  if (errors.length) throw badRequest(errors.join('; '));
  return out;
}

/** Reads a positive integer id from a payload value. */
export function readId(value: unknown, what = 'id'): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw badRequest(`${what} must be a positive whole number`);
  return id;
}

type Presenter = (row: Row) => Row;
const presenters = new WeakMap<EntityContract, Presenter>();

/** A row in its wire shape: groups nested, JSON parsed, wrapped values wrapped, booleans encoded. */
export function present(entity: EntityContract, row: Row): Row {
  let presenter = presenters.get(entity);
  if (!presenter) presenters.set(entity, (presenter = presenterOf(entity)));
  return presenter(row);
}

/** A field's stored value as it goes on the wire (null for a missing one). */
function wireValue(entity: EntityContract, field: FieldSpec): ((value: unknown) => unknown) | undefined {
  const parse = (value: unknown) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  };
  const typed =
    field.type === 'json' ? parse : field.type === 'bool' ? (value: unknown) => (value === null ? null : entity.activeAs === 'bool' ? Boolean(value) : Number(value)) : undefined;
  if (!field.wrap) return typed;
  const key = field.wrap;
  return (value) => ({ [key]: typed ? typed(value) : value });
}

/**
 * The entity's presenter: one function that builds the answer as one object literal (the fields in
 * their declared order, each group where its first field is), so that every answer has the same
 * shape and no property is read or written by a computed name: a page of rows is presented in a
 * fraction of the time it took field by field. Names come from the contract and are written into the
 * code as JSON strings (`__proto__` read and written as a plain property, never the prototype).
 */
function presenterOf(entity: EntityContract): Presenter {
  const fields = Object.entries(entity.fields);
  const key = (name: string) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name));
  const converters: ((value: unknown) => unknown)[] = [];
  const entry = (name: string, field: FieldSpec) => {
    const read = name === '__proto__' ? '(Object.getOwnPropertyDescriptor(row, "__proto__")?.value ?? null)' : `(row[${JSON.stringify(name)}] ?? null)`;
    const convert = wireValue(entity, field);
    return `${key(name)}: ${convert ? `c[${converters.push(convert) - 1}]${read}` : read}`;
  };
  const parts = ['"id": row.id'];
  const groups = new Set<string>();
  for (const [name, field] of fields) {
    const { group } = field;
    if (!group) parts.push(entry(name, field));
    else if (!groups.has(group)) {
      groups.add(group);
      const members = fields.filter(([, f]) => f.group === group);
      parts.push(`${key(group)}: { ${members.map(([member, f]) => entry(member, f)).join(', ')} }`);
    }
  }
  parts.push('"created_at": row.created_at ?? null', '"updated_at": row.updated_at ?? null');
  return new Function('c', `return (row) => ({ ${parts.join(', ')} });`)(converters) as Presenter;
}
