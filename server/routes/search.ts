/** POST /search-dive {keyIndex, value, targets} (SPEC §7.3): one search for every list. */
import type { FastifyInstance } from 'fastify';
import type { Paginated } from '../../contract';
import { bodyOf, type AppContext } from '../context';
import { authorizeRead, narrowed } from '../guard';
import { readSearch } from '../search';
import type { Row } from '../db';
import { listAll, listPage } from '../store';
import { keptAnswers, ok, readListQuery, wantsPages } from './common';

export async function searchRoutes(app: FastifyInstance, { db, config, registry }: AppContext) {
  const found = keptAnswers((page: Paginated<Row>) => ok({ HLL: page.data, total: page.total }));
  app.post('/search-dive', async (request, reply) => {
    const body = bodyOf(request);
    const { entity, value, targets } = readSearch(body, registry, config.strict);
    const q = { ...readListQuery(body, config.strict), search: { value, targets } };
    const scope = narrowed(authorizeRead(entity, request.caller), entity, request.caller, q.own);
    if (!wantsPages(body, config.strict)) return ok({ HLL: await listAll(db, entity, scope, q) });
    return found(reply, await listPage(db, entity, scope, q));
  });
}
