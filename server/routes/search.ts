/** POST /search-dive {keyIndex, value, targets} (SPEC §7.3): one search for every list. */
import type { FastifyInstance } from 'fastify';
import { bodyOf, type AppContext } from '../context';
import { authorizeRead, narrowed } from '../guard';
import { readSearch } from '../search';
import { listAll, listPage } from '../store';
import { ok, readListQuery, wantsPages } from './common';

export async function searchRoutes(app: FastifyInstance, { db, config, registry }: AppContext) {
  app.post('/search-dive', async (request) => {
    const body = bodyOf(request);
    const { entity, value, targets } = readSearch(body, registry, config.strict);
    const q = { ...readListQuery(body, config.strict), search: { value, targets } };
    const scope = narrowed(authorizeRead(entity, request.caller), entity, request.caller, q.own);
    if (!wantsPages(body, config.strict)) return ok({ HLL: await listAll(db, entity, scope, q) });
    const page = await listPage(db, entity, scope, q);
    return ok({ HLL: page.data, total: page.total });
  });
}
