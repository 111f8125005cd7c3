/**
 * The outbox for admins holding Mail templates (extensions, absent in strict mode; who may call is
 * checked by each route's gate, from contract/calls.ts, before the body is read):
 * - POST /templates/test {id, from_email?, subject?, message?}: the template (as the form holds it,
 *   or as saved) rendered with its event's sample values, written to the outbox for the caller.
 * - POST /mails/failed {}: the mails that failed after their last attempt, newest first, with the error.
 * - POST /mail/retry {id}: a failed mail waits to be sent again, its attempts starting over.
 */
import type { FastifyInstance } from 'fastify';
import { MAIL_PATHS } from '../../contract';
import { eventOf } from '../../resources/templates/events';
import { renderMail, templateProblem } from '../../resources/templates/render';
import { bodyOf, type AppContext } from '../context';
import { now } from '../db';
import { badRequest, notFound } from '../errors';
import { requireCaller } from '../guard';
import { enqueue, FAILED, WAITING } from '../mail';
import { coerce, readId } from '../records';
import { ok } from './common';

export async function mailRoutes(app: FastifyInstance, { db, config }: AppContext) {
  if (config.strict) return;

  app.post(MAIL_PATHS.test, async (request) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const template = await db.selectFrom('templates').selectAll().where('id', '=', readId(body.id)).executeTakeFirst();
    if (!template) throw notFound(`Template ${String(body.id)} does not exist`);
    const given = (name: 'from_email' | 'subject' | 'message') => {
      const value = body[name] ?? template[name];
      const read = coerce(name, { type: name === 'from_email' ? 'email' : 'text', required: true }, value ?? null);
      if ('error' in read) throw badRequest(read.error);
      if (typeof read.ok !== 'string' || read.ok.trim() === '') throw badRequest(`${name.replace('_', ' ')} is required`);
      return read.ok;
    };
    const text = { subject: given('subject'), message: given('message') };
    const event = eventOf(template.serial);
    const problem = templateProblem(text, event);
    if (problem) throw badRequest(problem);
    const to = String(caller.user.email);
    await enqueue(db, { to, from: given('from_email'), serial: (template.serial as string | null) ?? null, rendered: renderMail(text, event?.variables ?? {}) });
    return ok({ query: `A test mail is on its way to ${to}` });
  });

  app.post(MAIL_PATHS.failed, async () => {
    const rows = await db
      .selectFrom('mail_outbox')
      .select(['id', 'to_email', 'subject', 'serial', 'attempts', 'last_error', 'created_at', 'updated_at'])
      .where('state', '=', FAILED)
      .orderBy('id', 'desc')
      .limit(100)
      .execute();
    const total = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', FAILED).executeTakeFirst();
    return ok({ HLL: rows, total: Number(total?.n ?? 0) });
  });

  app.post(MAIL_PATHS.retry, async (request) => {
    const id = readId(bodyOf(request).id);
    const stamp = now();
    const done = await db
      .updateTable('mail_outbox')
      .set({ state: WAITING, attempts: 0, next_attempt_at: stamp, lease_until: null, leased_by: null, updated_at: stamp })
      .where('id', '=', id)
      .where('state', '=', FAILED)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw badRequest(`Mail ${id} has not failed: only a failed mail can be sent again`);
    return ok({ query: 'The mail will be sent again' });
  });
}
