/**
 * Save, list and status for every entity of the contract, from its table entry: one set of
 * handlers, no per-entity routes.
 */
import type { FastifyInstance } from 'fastify';
import { ENTITY_LIST, type EntityContract } from '../../contract';
import type { Context } from '../app';
import { bodyOf } from '../app';
import type { Caller } from '../auth';
import { authorize, narrowed, type Scope } from '../guard';
import { badRequest, forbidden } from '../errors';
import { readId, readPayload, label } from '../records';
import { checkLinks, deleteRow, findScoped, insertRow, listAll, listPage, presentMany, updateRow } from '../store';
import type { DB, Row } from '../db';
import { ok, readListQuery, wantsPages } from './common';
import { hooks } from '../hooks';

const served = (e: EntityContract) => e.name !== 'users' && Object.values(e.rules).some((r) => r !== 'none');

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

/** Fields only an admin may set: others may send them unchanged (the generic payload does), never changed. */
function guardAdminOnly(entity: EntityContract, values: Row, before: Row | undefined, caller: Caller | null, scope: Scope) {
  if (scope.kind === 'all' && caller?.role === 'admin') return;
  for (const [name, field] of Object.entries(entity.fields)) {
    if (!field.adminOnly || values[name] === undefined) continue;
    const current = before ? before[name] : hooks.defaults[name];
    if (values[name] !== (current ?? null)) throw forbidden(`Only an administrator can change ${label(name)}`);
    delete values[name];
  }
}

async function answer(db: DB, entity: EntityContract, row: Row, query: string) {
  const [detail] = await presentMany(db, entity, [row]);
  return ok({ query, detail });
}

export async function entityRoutes(app: FastifyInstance, { db, config }: Context) {
  for (const entity of ENTITY_LIST.filter(served)) {
    const title = hooks.title(entity);

    app.post(entity.list, async (request) => {
      const body = bodyOf(request);
      const q = readListQuery(body, config.strict);
      const scope = narrowed(authorize(entity.rules.read, entity, request.caller), entity, request.caller, q.own);
      if (entity.listShape === 'array' && !wantsPages(body, config.strict)) {
        return ok({ HLL: await listAll(db, entity, scope, q) });
      }
      const page = await listPage(db, entity, scope, q);
      return entity.listShape === 'array' ? ok({ HLL: page.data, total: page.total }) : ok({ HLL: page });
    });

    app.post(entity.save, async (request) => {
      const body = { ...bodyOf(request) };
      const caller = request.caller;
      const creating = body.id === undefined || body.id === null || body.id === '' || body.id === 0;
      if (creating) {
        const scope = authorize(entity.rules.create, entity, caller);
        const existing = await hooks.findExisting(db, entity, body);
        if (!existing) {
          const values = { ...hooks.defaultsFor(entity), ...readPayload(entity, body, { create: true }) };
          guardAdminOnly(entity, values, undefined, caller, scope);
          hooks.ownership(entity, values, caller);
          await checkLinks(db, entity, values);
          await hooks.checkOwnLinks(db, entity, values, scope);
          const row = await insertRow(db, entity, hooks.beforeWrite(entity, values, undefined));
          await hooks.afterWrite(db, entity, row, body);
          return answer(db, entity, row, `${title} created successfully`);
        }
        body.id = existing.id;
      }
      const id = readId(body.id);
      const scope = authorize(entity.rules.update, entity, caller);
      const before = await findScoped(db, entity, scope, id);
      const values = readPayload(entity, body, { create: false });
      guardAdminOnly(entity, values, before, caller, scope);
      await checkLinks(db, entity, values);
      await hooks.checkOwnLinks(db, entity, values, scope);
      const row = await updateRow(db, entity, id, hooks.beforeWrite(entity, values, before));
      await hooks.afterWrite(db, entity, row, body);
      return answer(db, entity, row, `${title} updated successfully`);
    });

    app.post(entity.status, async (request) => {
      const body = bodyOf(request);
      const id = readId(body.id);
      const scope = authorize(entity.rules.update, entity, request.caller);
      const before = await findScoped(db, entity, scope, id);
      if (isDelete(entity, body)) {
        await deleteRow(db, entity, id);
        return ok({ query: `${title} deleted successfully`, detail: { id } });
      }
      const values = readPayload(entity, hooks.statusAliases(entity, body), { create: false, only: entity.statusFields });
      if (Object.keys(values).length === 0) {
        throw badRequest(`Nothing to change: send ${entity.statusFields.join(', ') || 'a delete request'}`);
      }
      guardAdminOnly(entity, values, before, request.caller, scope);
      const row = await updateRow(db, entity, id, hooks.beforeWrite(entity, values, before));
      return answer(db, entity, row, `${title} status updated successfully`);
    });
  }
}
