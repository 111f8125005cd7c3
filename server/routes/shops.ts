/**
 * The shops of one owner (SPEC §7.2 /shopz): the caller's own, or, for an admin holding the Shops
 * screen's access, any user's. The shops' other calls come from the registry (server/routes/entities.ts).
 */
import type { FastifyInstance } from 'fastify';
import { bodyOf, type AppContext } from '../context';
import { registry } from '../registry';
import { authorize, requireCaller } from '../guard';
import { readId } from '../records';
import { presentMany } from '../store';
import { ok } from './common';

const SHOPS = registry.entity('shops');

export async function shopRoutes(app: FastifyInstance, { db }: AppContext) {
  app.post('/shopz', async (request) => {
    const caller = requireCaller(request.caller);
    const ownerId = readId(bodyOf(request).owner_id ?? caller.id, 'owner_id');
    if (ownerId !== caller.id) authorize('admin', SHOPS, caller);
    const rows = await db.selectFrom('shops').selectAll().where('owner_id', '=', ownerId).orderBy('id').limit(1000).execute();
    return ok({ HLL: await presentMany(db, SHOPS, rows) });
  });
}
