/**
 * The signed-in user's own sessions (an extension for the account page; 404 in strict mode):
 * POST /user/sessions lists them, the caller's own marked `current`; POST /user/sessions/end ends
 * one of them by id, or with {others: true} every one but the caller's ('sign out everywhere else').
 * Nobody sees or ends another user's sessions; admins end them by blacklisting (/user/status).
 */
import type { FastifyInstance } from 'fastify';
import { bodyOf, type AppContext } from '../context';
import { closeSessions, sessionTokenOf, sha256 } from '../auth';
import { now } from '../db';
import { badRequest, notFound } from '../errors';
import { requireCaller } from '../guard';
import { readId } from '../records';
import { ok } from './common';

/** A user keeps at most this many sessions listed (newest first). */
const MAX_LISTED = 100;

export async function sessionRoutes(app: FastifyInstance, { db, config }: AppContext) {
  if (config.strict) return;

  app.post('/user/sessions', async (request) => {
    const caller = requireCaller(request.caller);
    const mine = sha256(sessionTokenOf(request.headers.authorization) ?? '');
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'token_hash', 'created_at', 'expires_at'])
      .where('user_id', '=', caller.id)
      .where('expires_at', '>', now())
      .orderBy('id', 'desc')
      .limit(MAX_LISTED)
      .execute();
    const sessions = rows.map((r) => ({
      id: Number(r.id), created_at: r.created_at, expires_at: r.expires_at, current: r.token_hash === mine,
    }));
    return ok({ query: `${sessions.length} signed-in session(s)`, HLL: sessions });
  });

  app.post('/user/sessions/end', async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const token = sessionTokenOf(request.headers.authorization);
    if (body.others === true) {
      const mine = sha256(token ?? '');
      const others = await db.selectFrom('sessions').select('id').where('user_id', '=', caller.id).where('token_hash', '!=', mine).execute();
      await closeSessions(db, caller.id, token);
      return ok({ query: others.length === 1 ? 'Signed out of 1 other session' : `Signed out of ${others.length} other sessions` });
    }
    if (body.id === undefined) throw badRequest('Send the id of a session, or others: true');
    const id = readId(body.id);
    const session = await db.selectFrom('sessions').select(['id', 'token_hash']).where('id', '=', id).where('user_id', '=', caller.id).executeTakeFirst();
    // Another user's session reads as missing: its existence is not disclosed.
    if (!session) throw notFound(`You have no session with id ${id}`);
    if (token && session.token_hash === sha256(token)) throw badRequest('This is the session you are using; sign out from the user menu');
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return ok({ query: 'Session signed out' });
  });
}
