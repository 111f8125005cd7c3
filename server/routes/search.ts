/** POST /search-dive {keyIndex, value, targets} (SPEC §7.3): one search for every list. */
import type { FastifyInstance } from 'fastify';
import { bodyOf, type AppContext } from '../context';
import { authorizeRead, narrowed } from '../guard';
import { badRequest } from '../errors';
import { listAll, listPage } from '../store';
import { ok, readListQuery, wantsPages } from './common';

export async function searchRoutes(app: FastifyInstance, { db, config, registry }: AppContext) {
  app.post('/search-dive', async (request) => {
    const body = bodyOf(request);
    const keyIndex = typeof body.keyIndex === 'string' && /^\d+$/.test(body.keyIndex) ? Number(body.keyIndex) : body.keyIndex;
    if (typeof keyIndex !== 'number' || !Number.isInteger(keyIndex)) throw badRequest('keyIndex must be a whole number');
    const entity = registry.byKeyIndex(keyIndex);
    // Extensions of the contract (the audit log, subcategories) are not searchable in strict mode either.
    if (!entity?.search || (config.strict && entity.extension)) throw badRequest(`keyIndex ${keyIndex} does not name a searchable list`);
    const value = body.value ?? '';
    if (typeof value !== 'string' && typeof value !== 'number') throw badRequest('value must be text');
    if (String(value).length > 100) throw badRequest('value must be at most 100 characters');
    if (!Array.isArray(body.targets) || body.targets.length === 0) throw badRequest('targets must be a list of column names');
    const allowed: readonly string[] = entity.search.targets;
    if (body.targets.length > allowed.length) throw badRequest(`targets may name at most ${allowed.length} columns: ${allowed.join(', ')}`);
    for (const target of body.targets) {
      if (typeof target !== 'string' || !allowed.includes(target)) {
        throw badRequest(`${String(target).slice(0, 64)} cannot be searched here; allowed: ${allowed.join(', ')}`);
      }
    }
    const q = { ...readListQuery(body, config.strict), search: { value: String(value), targets: [...new Set(body.targets as string[])] } };
    const scope = narrowed(authorizeRead(entity, request.caller), entity, request.caller, q.own);
    if (!wantsPages(body, config.strict)) return ok({ HLL: await listAll(db, entity, scope, q) });
    const page = await listPage(db, entity, scope, q);
    return ok({ HLL: page.data, total: page.total });
  });
}
