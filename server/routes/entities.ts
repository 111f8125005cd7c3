/**
 * Save, list and status for every entity of the registry: one set of handlers, no per-entity
 * routes. What belongs to one entity is in its hooks file (server/hooks/<entity>.ts); defaults,
 * ownership, unique fields and links are read from the contract. Every save runs, with its related
 * rows, in one transaction.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { CallRole, EntityContract, Info, Paginated } from '../../contract';
import type { AppContext } from '../context';
import { bodyOf } from '../context';
import type { Caller } from '../auth';
import { authorize, authorizeRead, checkOwnLinks, gate, narrowed, rolesOf, type Gate, type Scope } from '../guard';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { readId, readPayload, label } from '../records';
import { checkLinks, deleteRow, findScoped, insertRow, listAll, listPage, presentMany, updateRow, type ListQuery } from '../store';
import type { DB, Row } from '../db';
import { loadHooks, type EntityHooks, type HookContext } from '../hooks';
import { attachFiles } from '../attachments';
import { audit } from '../audit';
import { checkUnreferenced } from '../integrity';
import { keptAnswers, ok, readListQuery, wantsPages } from './common';

/** The HTTP exchange a call came in, for hooks that read the caller's address or set a cookie. */
export interface HttpExchange {
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Entities served here: not those with routes of their own (users), nor those no one may call, nor
 * extensions of the contract in strict mode.
 */
const served = (e: EntityContract, strict: boolean) =>
  !e.ownRoutes && !(strict && e.extension) && Object.values(e.rules).some((r) => r !== 'none');

/** Whether a status call asks for deletion, in the entity's delete style (SPEC §4.8). */
function isDelete(entity: EntityContract, body: Record<string, unknown>): boolean {
  switch (entity.remove) {
    case 'tyype':
      return body.tyype === 'clear';
    case 'tyype+type':
      return body.tyype === 'clear' || body.type === 'clear';
    case 'id':
      return Object.keys(body).every((k) => k === 'id');
    case 'none':
      return false;
  }
}

const defaultsOf = (entity: EntityContract): Row =>
  Object.fromEntries(
    Object.entries(entity.fields)
      .filter(([, field]) => field.default !== undefined)
      .map(([name, field]) => [name, typeof field.default === 'boolean' ? Number(field.default) : field.default]),
  );

/** Fields only an admin may set: others may send them unchanged (the generic payload does), never changed. */
function guardAdminOnly(entity: EntityContract, values: Row, before: Row | undefined, caller: Caller | null, scope: Scope) {
  if (scope.kind === 'all' && caller?.role === 'admin') return;
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!field.adminOnly || values[name] === undefined) continue;
    const current = before ? before[name] : field.default;
    // The same value (a new record's default included) is kept as it is.
    if (values[name] !== (current ?? null)) throw forbidden(`Only an administrator can change ${label(name)}`);
  }
}

/**
 * A record's creator fields (a shop's owner_id) are set when it is created: a save that would change
 * one is refused, never answered as if it were applied. The value it holds may be sent back, and so
 * may the caller's own id: the generic payload (SPEC §3.24) always carries the editing user as
 * owner_id, and an admin editing a seller's shop asks for no change of owner by it.
 */
function guardCreator(entity: EntityContract, body: Row, before: Row, caller: Caller | null) {
  for (const [name, field] of Object.entries(entity.fields)) {
    const sent = body[name];
    if (!field.creator || sent === undefined || sent === null || sent === '' || String(sent) === String(before[name])) continue;
    if (caller && String(sent) === String(caller.id)) continue;
    throw forbidden(`${label(name)} is set when the record is created; the change was not applied`);
  }
}

/** A new record's creator fields (a shop's owner_id) are the caller. */
function setCreator(entity: EntityContract, values: Row, caller: Caller | null) {
  for (const [name, field] of Object.entries(entity.fields)) if (field.creator && caller) values[name] = caller.id;
}

/** Fields declared unique: no other record may hold the same value (text compared case-insensitively). */
async function checkUnique(db: DB, entity: EntityContract, values: Row, id?: number) {
  for (const [name, field] of Object.entries(entity.fields)) {
    const value = values[name];
    if (!field.unique || value === undefined || value === null || value === '') continue;
    let query = db.selectFrom(entity.name).select('id');
    query =
      typeof value === 'string'
        ? query.where(sql<boolean>`lower(${sql.ref(name)}) = ${value.toLowerCase()}`)
        : query.where(name, '=', value);
    if (id !== undefined) query = query.where('id', '!=', id);
    if (await query.executeTakeFirst()) throw conflict(`The ${label(name)} '${String(value)}' is already used by another ${entity.title.toLowerCase()}`);
  }
}

async function answer(db: DB, entity: EntityContract, row: Row, query: string) {
  const [detail] = await presentMany(db, entity, [row]);
  return ok({ query, detail });
}

/** A seller variant may send a status field under another name (My Orders' `state`, SPEC §4.5). */
function withStatusAliases(entity: EntityContract, body: Row): Row {
  const out = { ...body };
  for (const [field, alias] of Object.entries(entity.sellerStatusAs ?? {})) {
    if (out[field] === undefined && out[alias] !== undefined) out[field] = out[alias];
  }
  return out;
}

const isNew = (id: unknown) => id === undefined || id === null || id === '' || id === 0;

/**
 * One entity's operations, whatever dialect calls them (the contract's POST paths, the REST face):
 * the guard, validation, seller scoping, hooks and audit live here once.
 */
export interface EntityService {
  entity: EntityContract;
  /** Whether callers may create records through the API (a POST on the REST face). */
  creates: boolean;
  /** Whether records are deleted through the API (a DELETE on the REST face). */
  deletes: boolean;
  /** Whether a create naming an existing record adds to it (the entity's findExisting hook). */
  addsToExisting?: boolean;
  /**
   * Who may call an operation, answered before its body is checked (the route's gate, see
   * server/guard.ts): 'save' creates or updates as the body's id says. Throws 401 or 403.
   */
  may(op: Operation, caller: Caller | null, body: Record<string, unknown>): void;
  /** Who `may` lets through for an operation, as the API document says. */
  roles(op: Operation): readonly CallRole[];
  /** The records the caller may read; `own` narrows an admin to their own records ('My Shops'). */
  readScope(caller: Caller | null, own: boolean): Scope;
  /** A page of them. */
  list(caller: Caller | null, q: ListQuery): Promise<Paginated<Row>>;
  /** One record the caller may read, in wire shape; 404 otherwise. */
  one(caller: Caller | null, id: number, own: boolean): Promise<Row>;
  /** The save call: creates without an id, updates with one; answers the envelope (the record in `detail`). */
  save(caller: Caller | null, body: Record<string, unknown>, http?: HttpExchange): Promise<Info<Row>>;
  /** The status call: status fields, or a delete in the entity's delete style. */
  status?(caller: Caller | null, body: Record<string, unknown>): Promise<Info<Row>>;
  /** Deletes one record (the status call's delete). */
  remove?(caller: Caller | null, id: number): Promise<Info<Row>>;
}

/**
 * A list, one record, a create, an edit of a record's fields, a save that is a create or an edit by
 * its body's id, a status call or delete.
 */
export type Operation = 'read' | 'one' | 'create' | 'edit' | 'save' | 'status';

/** The route's gate of one of a service's operations. */
export const gateOf = (service: EntityService, op: Operation): Gate => gate(service.roles(op), (caller, body) => service.may(op, caller, body));

/** The record of a scope, read as a list reads it; 404 when it is missing or not the caller's. */
export async function readOne(db: DB, entity: EntityContract, scope: Scope, id: number): Promise<Row> {
  const page = await listPage(db, entity, scope, { page: 1, perPage: 1, ids: [id] });
  if (!page.data.length) throw notFound(`${entity.title} ${id} does not exist, or it is not yours`);
  return page.data[0];
}

/** The operations of every entity the generic routes serve. */
export async function entityServices({ db, config, registry, clock = Date.now }: AppContext): Promise<Map<string, EntityService>> {
  const allHooks = await loadHooks(registry.entities);
  const services = new Map<string, EntityService>();
  for (const entity of registry.entities.filter((e) => served(e, config.strict))) {
    const hooks: EntityHooks = allHooks.get(entity.name) ?? {};
    const title = entity.title;
    const readScope = (caller: Caller | null, own: boolean) => narrowed(authorizeRead(entity, caller), entity, caller, own);

    const save = async (caller: Caller | null, given: Record<string, unknown>, http?: HttpExchange) => {
      const body = { ...given };
      // A visitor without a session may change only their own chat (the entity's visitorScope).
      const visitor = !caller && !isNew(body.id) && hooks.visitorScope && http ? await hooks.visitorScope(db, http.request, readId(body.id)) : undefined;
      const scope = visitor ?? authorize(isNew(body.id) ? entity.rules.create : entity.rules.update, entity, caller);
      return db.transaction().execute(async (trx) => {
        const ctx: HookContext = { db: trx, entity, caller, scope, request: http?.request, reply: http?.reply, config, clock };
        if (isNew(body.id)) {
          const existing = await hooks.findExisting?.(ctx, body);
          if (!existing) {
            const values = { ...defaultsOf(entity), ...readPayload(entity, body, { create: true }) };
            guardAdminOnly(entity, values, undefined, caller, scope);
            setCreator(entity, values, caller);
            const shaped = (await hooks.beforeWrite?.(ctx, values, undefined, body)) ?? values;
            await checkLinks(trx, entity, shaped);
            await checkOwnLinks(trx, entity, shaped, scope);
            await checkUnique(trx, entity, shaped);
            const row = await insertRow(trx, entity, shaped);
            await attachFiles(trx, entity, row);
            await hooks.afterWrite?.(ctx, row, body);
            await audit(trx, { caller, action: 'create', entity: entity.name, recordId: Number(row.id), after: row });
            return answer(trx, entity, row, `${title} created successfully`);
          }
          // Adding to an existing record needs the right to change it.
          ctx.scope = authorize(entity.rules.update, entity, caller);
          body.id = existing.id;
        }
        const id = readId(body.id);
        const before = await findScoped(trx, entity, ctx.scope, id);
        guardCreator(entity, body, before, caller);
        const values = readPayload(entity, body, { create: false });
        guardAdminOnly(entity, values, before, caller, ctx.scope);
        const shaped = (await hooks.beforeWrite?.(ctx, values, before, given)) ?? values;
        await checkLinks(trx, entity, shaped);
        await checkOwnLinks(trx, entity, shaped, ctx.scope);
        await checkUnique(trx, entity, shaped, id);
        const row = await updateRow(trx, entity, id, shaped);
        await attachFiles(trx, entity, row);
        await hooks.afterWrite?.(ctx, row, body);
        await audit(trx, { caller, action: 'update', entity: entity.name, recordId: id, before, after: row });
        return answer(trx, entity, row, `${title} updated successfully`);
      });
    };

    const deleteIn = async (trx: DB, caller: Caller | null, id: number, before: Row) => {
      await checkUnreferenced(trx, registry, entity, id);
      await deleteRow(trx, entity, id);
      await audit(trx, { caller, action: 'delete', entity: entity.name, recordId: id, before });
      return ok<Row, unknown>({ query: `${title} deleted successfully`, detail: { id } });
    };

    const status = async (caller: Caller | null, given: Record<string, unknown>) => {
      // Who may call comes first: a caller who may not use the call learns nothing of its payload.
      const scope = authorize(entity.rules.update, entity, caller);
      const body = withStatusAliases(entity, given);
      const id = readId(body.id);
      return db.transaction().execute(async (trx) => {
        const before = await findScoped(trx, entity, scope, id);
        if (isDelete(entity, body)) return deleteIn(trx, caller, id, before);
        const values = readPayload(entity, body, { create: false, only: entity.statusFields });
        const emptied = Object.keys(values).filter((key) => values[key] === null);
        if (emptied.length) throw badRequest(`${emptied.map(label).join(', ')} cannot be left empty`);
        if (Object.keys(values).length === 0) {
          throw badRequest(`Nothing to change: send ${entity.statusFields.join(', ') || 'a delete request'}`);
        }
        guardAdminOnly(entity, values, before, caller, scope);
        const ctx: HookContext = { db: trx, entity, caller, scope, config, clock };
        const shaped = (await hooks.beforeWrite?.(ctx, values, before, body)) ?? values;
        const row = await updateRow(trx, entity, id, shaped);
        // The hook sees the status fields only: a status call changes nothing else (a category's subcategory).
        await hooks.afterWrite?.(ctx, row, values);
        await audit(trx, { caller, action: 'status', entity: entity.name, recordId: id, before, after: row });
        return answer(trx, entity, row, `${title} status updated successfully`);
      });
    };

    const remove = async (caller: Caller | null, id: number) => {
      const scope = authorize(entity.rules.update, entity, caller);
      return db.transaction().execute(async (trx) => deleteIn(trx, caller, id, await findScoped(trx, entity, scope, id)));
    };

    const may = (op: Operation, caller: Caller | null, body: Record<string, unknown>) => {
      if (op === 'read' || op === 'one') return void readScope(caller, false);
      const create = op === 'create' || (op === 'save' && isNew(body.id));
      // A visitor without a session may edit their own record (their chat): decided with their key.
      if (!create && op !== 'status' && !caller && hooks.visitorScope) return;
      authorize(create ? entity.rules.create : entity.rules.update, entity, caller);
    };

    const { read, create, update } = entity.rules;
    const roles = (op: Operation): readonly CallRole[] =>
      op === 'read' || op === 'one' ? rolesOf(read, entity, true)
        : op === 'create' ? rolesOf(create, entity)
          : op === 'save' ? [...new Set([...rolesOf(create, entity), ...rolesOf(update, entity)])]
            // A visitor edits their own record with their key, no session: anyone may try.
            : op === 'edit' && hooks.visitorScope ? ['anyone', ...rolesOf(update, entity)]
              : rolesOf(update, entity);

    services.set(entity.name, {
      entity,
      may,
      roles,
      creates: entity.rules.create !== 'none',
      deletes: entity.remove !== 'none',
      addsToExisting: Boolean(hooks.findExisting),
      readScope,
      list: (caller, q) => listPage(db, entity, readScope(caller, q.own ?? false), q),
      one: (caller, id, own) => readOne(db, entity, readScope(caller, own), id),
      save,
      status,
      ...(entity.remove !== 'none' ? { remove } : {}),
    });
  }
  return services;
}

export async function entityRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, config, services } = ctx;
  for (const [name, service] of await entityServices(ctx)) {
    services.set(name, service);
    const { entity, save, status, readScope } = service;

    const pageAnswer = keptAnswers((page: Paginated<Row>) => (entity.listShape === 'array' ? ok({ HLL: page.data, total: page.total }) : ok({ HLL: page })));
    app.post(entity.list, { config: { gate: gateOf(service, 'read') } }, async (request, reply) => {
      const body = bodyOf(request);
      const q = readListQuery(body, config.strict);
      const own = readScope(request.caller, q.own ?? false);
      if (entity.listShape === 'array' && !wantsPages(body, config.strict)) {
        return ok({ HLL: await listAll(db, entity, own, q) });
      }
      return pageAnswer(reply, await listPage(db, entity, own, q));
    });

    app.post(entity.save, { config: { gate: gateOf(service, 'save') } }, async (request, reply) => save(request.caller, bodyOf(request), { request, reply }));

    // An entity with no status field and no delete has no status call (subcategories).
    if (status && (entity.statusFields.length || entity.remove !== 'none')) app.post(entity.status, { config: { gate: gateOf(service, 'status') } }, async (request) => status(request.caller, bodyOf(request)));
  }
}
