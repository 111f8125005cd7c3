/**
 * Save, list and status for every entity of the registry: one set of handlers, no per-entity
 * routes. What belongs to one entity is in its hooks file (server/hooks/<entity>.ts); defaults,
 * ownership, unique fields and links are read from the contract. Every save runs, with its related
 * rows, in one transaction.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { EntityContract } from '../../contract';
import type { AppContext } from '../app';
import { bodyOf } from '../app';
import type { Caller } from '../auth';
import { authorize, authorizeRead, checkOwnLinks, narrowed, type Scope } from '../guard';
import { badRequest, conflict, forbidden } from '../errors';
import { readId, readPayload, label } from '../records';
import { checkLinks, deleteRow, findScoped, insertRow, listAll, listPage, presentMany, updateRow } from '../store';
import type { DB, Row } from '../db';
import { loadHooks, type EntityHooks, type HookContext } from '../hooks';
import { audit } from '../audit';
import { checkUnreferenced } from '../integrity';
import { ok, readListQuery, wantsPages } from './common';

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

export async function entityRoutes(app: FastifyInstance, { db, config, registry }: AppContext) {
  const allHooks = await loadHooks(registry.entities);
  for (const entity of registry.entities.filter((e) => served(e, config.strict))) {
    const hooks: EntityHooks = allHooks.get(entity.name) ?? {};
    const title = entity.title;

    app.post(entity.list, async (request) => {
      const body = bodyOf(request);
      const scope = authorizeRead(entity, request.caller);
      const q = readListQuery(body, config.strict);
      const own = narrowed(scope, entity, request.caller, q.own);
      if (entity.listShape === 'array' && !wantsPages(body, config.strict)) {
        return ok({ HLL: await listAll(db, entity, own, q) });
      }
      const page = await listPage(db, entity, own, q);
      return entity.listShape === 'array' ? ok({ HLL: page.data, total: page.total }) : ok({ HLL: page });
    });

    app.post(entity.save, async (request, reply) => {
      const body = { ...bodyOf(request) };
      const caller = request.caller;
      const visitor = !caller && !isNew(body.id) && hooks.visitorScope ? await hooks.visitorScope(db, request, readId(body.id)) : undefined;
      const scope = visitor ?? authorize(isNew(body.id) ? entity.rules.create : entity.rules.update, entity, caller);
      return db.transaction().execute(async (trx) => {
        const ctx: HookContext = { db: trx, entity, caller, scope, request, reply };
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
        const values = readPayload(entity, body, { create: false });
        guardAdminOnly(entity, values, before, caller, ctx.scope);
        const shaped = (await hooks.beforeWrite?.(ctx, values, before, bodyOf(request))) ?? values;
        await checkLinks(trx, entity, shaped);
        await checkOwnLinks(trx, entity, shaped, ctx.scope);
        await checkUnique(trx, entity, shaped, id);
        const row = await updateRow(trx, entity, id, shaped);
        await hooks.afterWrite?.(ctx, row, body);
        await audit(trx, { caller, action: 'update', entity: entity.name, recordId: id, before, after: row });
        return answer(trx, entity, row, `${title} updated successfully`);
      });
    });

    app.post(entity.status, async (request) => {
      // Who may call comes first: a caller who may not use the call learns nothing of its payload.
      const scope = authorize(entity.rules.update, entity, request.caller);
      const body = withStatusAliases(entity, bodyOf(request));
      const id = readId(body.id);
      return db.transaction().execute(async (trx) => {
        const before = await findScoped(trx, entity, scope, id);
        if (isDelete(entity, body)) {
          await checkUnreferenced(trx, registry, entity, id);
          await deleteRow(trx, entity, id);
          await audit(trx, { caller: request.caller, action: 'delete', entity: entity.name, recordId: id, before });
          return ok({ query: `${title} deleted successfully`, detail: { id } });
        }
        const values = readPayload(entity, body, { create: false, only: entity.statusFields });
        const emptied = Object.keys(values).filter((key) => values[key] === null);
        if (emptied.length) throw badRequest(`${emptied.map(label).join(', ')} cannot be left empty`);
        if (Object.keys(values).length === 0) {
          throw badRequest(`Nothing to change: send ${entity.statusFields.join(', ') || 'a delete request'}`);
        }
        guardAdminOnly(entity, values, before, request.caller, scope);
        const ctx: HookContext = { db: trx, entity, caller: request.caller, scope };
        const shaped = (await hooks.beforeWrite?.(ctx, values, before, body)) ?? values;
        const row = await updateRow(trx, entity, id, shaped);
        await audit(trx, { caller: request.caller, action: 'status', entity: entity.name, recordId: id, before, after: row });
        return answer(trx, entity, row, `${title} status updated successfully`);
      });
    });
  }
}
