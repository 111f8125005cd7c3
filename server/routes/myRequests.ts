/**
 * A signed-in user's own account deletion requests (an extension; absent in strict mode):
 * `POST /deletion/mine` answers them newest first in HLL, with their state, so the account page can
 * show whether one waits, was rejected or was carried out. Nobody reads another user's requests here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { requireCaller } from '../guard';
import { ok } from './common';

export async function myRequestRoutes(app: FastifyInstance, { db, config }: AppContext) {
  if (config.strict) return;
  app.post('/deletion/mine', async (request) => {
    const caller = requireCaller(request.caller);
    const rows = await db
      .selectFrom('deletions')
      .select(['id', 'deletion_status', 'feedback', 'is_active', 'created_at', 'updated_at'])
      .where('customer_id', '=', caller.id)
      .orderBy('id', 'desc')
      .limit(20)
      .execute();
    return ok({ HLL: rows });
  });
}
