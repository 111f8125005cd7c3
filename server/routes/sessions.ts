/**
 * Sessions (SPEC §7.2, DESIGN D6–D8): opening one (registering, signing in with a password and a
 * second factor, or a passkey), ending it (signing out), the password flows (a reset link, a
 * signed-in change), and, as an extension for the account page (404 in strict mode), the signed-in
 * user's own sessions: POST /user/sessions lists them, the caller's own marked `current`; POST
 * /user/sessions/end ends one of them by id, or with {others: true} every one but the caller's
 * ('sign out everywhere else'). Nobody sees or ends another user's sessions; admins end them by
 * blacklisting (/user/status).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_ABILITIES, roleOf } from '../../contract';
import { bodyOf, type AppContext } from '../context';
import { audit } from '../audit';
import {
  callerOf, closeSessions, createResetToken, dummyHash, hashPassword, openSession, sessionTime, sessionTokenOf, sha256, verifyPassword,
} from '../auth';
import { now, type Row } from '../db';
import { badRequest, forbidden, notFound, unauthorized } from '../errors';
import { requireCaller } from '../guard';
import { readId } from '../records';
import { queueMail } from '../mail';
import { Throttle, accountKey, addressKey, signInKey, type Limit } from '../throttle';
import { ok } from './common';
import { checkNewPassword, readNewPassword, readPassword, type PasswordChecks } from '../passwords';
import { secondFactorAtSignIn } from './secondFactor';
import { mustEnrol } from '../secondFactorPolicy';
import { PASSKEY_REFUSED, passwordlessUser } from '../passkeys';
import { PHONE, abilitiesOf, createUser, currentPassword, endResetTokens, ensureUnique, text, userById } from './users';

/** Registering, signing in and out, and the password flows. */
export async function signInRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, config, throttle = new Throttle(db) } = ctx;
  const clock = ctx.clock ?? Date.now;
  const { limits } = throttle;
  /** A new password's checks beyond its shape, with this request's log for a breach service that does not answer. */
  const checks = (request: FastifyRequest): PasswordChecks => ({
    breachedPasswordsUrl: config.breachedPasswordsUrl, warn: (message) => request.log.warn(message),
  });

  app.post('/user', async (request) => {
    await throttle.take([[addressKey('register', request.ip), limits.register]]);
    const body = bodyOf(request);
    const name = text(body, 'name', { required: true });
    const email = text(body, 'email', { required: true, type: 'email' }).toLowerCase();
    const phone = text(body, 'phone', { required: true, max: 32 });
    if (!PHONE.test(phone)) throw badRequest('phone must be a phone number such as +447700900123');
    const secret = await readNewPassword(body, { name, email, phone }, checks(request));
    const abilities = body.abilities === undefined ? DEFAULT_ABILITIES : abilitiesOf(body.abilities);
    if (roleOf(abilities) === 'admin') throw forbidden('An administrator account cannot be registered; ask an administrator');
    await ensureUnique(db, email, phone);
    // The welcome mail is written with the account: both or neither (the password is hashed before,
    // so the transaction does not hold the database while it is).
    const passwordHash = await hashPassword(secret);
    const user = await db.transaction().execute(async (trx) => {
      const created = await createUser(trx, { name, email, phone, password: secret, passwordHash, abilities });
      await queueMail(trx, 'WELCOME', email, { name, email, site_url: config.publicUrl });
      return created;
    });
    const token = await openSession(db, Number(user.id), sessionTime(ctx));
    return ok({ query: 'Your account has been created', detail: { token, id: Number(user.id), ...enrolment(user) } });
  });

  /** {enrol_second_factor: true} when the policy makes this new session's user set up a second factor first. */
  const enrolment = (user: Row) => (mustEnrol(config, callerOf(user)) ? { enrol_second_factor: true } : {});

  /** A new session for a user who proved who they are (with a second factor at `factorAt`, ms). */
  const signedIn = async (user: Row, factorAt?: number) => {
    const token = await openSession(db, Number(user.id), sessionTime(ctx), factorAt);
    await audit(db, { caller: callerOf(user), action: 'sign-in', entity: 'users', recordId: Number(user.id) });
    return ok({ query: 'Signed in successfully', detail: { token, id: Number(user.id), ...enrolment(user) } });
  };

  app.post('/user/terminal', async (request) => {
    const body = bodyOf(request);
    // A passkey instead of the password (an extension): its assertion alone, counted per address.
    if (!config.strict && body.passkey !== undefined && body.passkey !== null && (body.password === undefined || body.password === '')) {
      const keys: [string, Limit][] = [[addressKey('login', request.ip), limits.loginAddress]];
      await throttle.take(keys);
      const user = await passwordlessUser({ ...ctx, throttle }, body.passkey, clock());
      if (!user) throw unauthorized(PASSKEY_REFUSED);
      await throttle.undo(keys);
      if (!Number(user.is_active)) throw forbidden('This account has been deactivated; please contact support');
      return signedIn(user, clock());
    }
    const credential = text(body, 'credential', { required: true }).toLowerCase();
    if (typeof body.password !== 'string' || body.password === '') throw badRequest('password is required');
    if (body.password.length > 200) throw badRequest('password must be at most 200 characters');
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('email', '=', credential), eb('phone', '=', credential)]))
      .executeTakeFirst();
    // Every attempt counts until it succeeds, per account and per address, before the password is
    // checked: a known account under its id (its email and its phone number share one counter), an
    // unknown credential under its own key, with the same limit and the same answers.
    const keys: [string, Limit][] = [
      [user ? signInKey(Number(user.id)) : accountKey('login', credential), limits.loginAccount],
      [addressKey('login', request.ip), limits.loginAddress],
    ];
    await throttle.take(keys);
    // An unknown credential is checked against a dummy hash, so both answers take as long.
    const matches = await verifyPassword(body.password, user ? user.password_hash : await dummyHash());
    if (!user || !matches) throw unauthorized('The email, phone number or password is not correct');
    if (!Number(user.is_active)) {
      await throttle.undo(keys);
      throw forbidden('This account has been deactivated; please contact support');
    }
    // A second factor, when the account has one (strict mode too: a security rule, not an extension).
    // A wrong code counts as a failed sign-in; no code at all asks for one.
    const factor = await secondFactorAtSignIn({ ...ctx, throttle }, user, body, keys);
    await throttle.undo(keys);
    return signedIn(user, factor ? clock() : undefined);
  });

  app.post('/user/reset', async (request) => {
    const email = text(bodyOf(request), 'email', { required: true, type: 'email' }).toLowerCase();
    await throttle.take([[accountKey('reset', email), limits.resetAccount], [addressKey('reset', request.ip), limits.resetAddress]]);
    const user = await db.selectFrom('users').select(['id', 'email', 'name']).where('email', '=', email).executeTakeFirst();
    if (user) {
      await db.transaction().execute(async (trx) => {
        const { token, hash, expiresAt } = await createResetToken(trx, Number(user.id));
        const link = `${config.publicUrl}/forgot-password?token=${token}`;
        await queueMail(trx, 'RESET', email, { name: String(user.name ?? ''), reset_link: link }, { hash, expiresAt });
      });
    }
    return ok({ query: 'If an account exists for this email, a link to reset the password has been sent to it' });
  });

  /**
   * A new password: with a mailed reset token (signed out), or, signed in, with the current
   * password (an extension of the contract's call). Either way every outstanding reset token of
   * the user dies; a reset ends every session, a signed-in change every session but this one.
   */
  app.post('/user/update', async (request) => {
    const body = bodyOf(request);
    if (body.reset_token === undefined && request.caller) {
      const caller = request.caller;
      const user = await userById(db, caller.id);
      await currentPassword(throttle, body, user, 'Enter your current password to choose a new one');
      const secret = await readNewPassword(body, user, checks(request));
      await db.updateTable('users').set({ password_hash: await hashPassword(secret), updated_at: now() }).where('id', '=', caller.id).execute();
      await endResetTokens(db, caller.id);
      await closeSessions(db, caller.id, sessionTokenOf(request.headers.authorization));
      await audit(db, { caller, action: 'password', entity: 'users', recordId: caller.id });
      return ok({ query: 'Your password has been changed' });
    }
    const token = text(body, 'reset_token', { required: true });
    const secret = readPassword(body);
    const keys: [string, Limit][] = [[addressKey('reset', request.ip), limits.resetAddress]];
    await throttle.take(keys);
    const reset = await db.selectFrom('password_resets').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
    const invalid = () => badRequest('This reset link is not valid any more; please ask for a new one');
    if (!reset || reset.used_at || String(reset.expires_at) < now()) throw invalid();
    const userId = Number(reset.user_id);
    await checkNewPassword(secret, await userById(db, userId), checks(request));
    // Single use even when two requests race: only the one that marks it used goes on.
    const claimed = await db
      .updateTable('password_resets').set({ used_at: now() })
      .where('id', '=', Number(reset.id)).where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw invalid();
    await db.updateTable('users').set({ password_hash: await hashPassword(secret), updated_at: now() }).where('id', '=', userId).execute();
    await endResetTokens(db, userId);
    await closeSessions(db, userId);
    await throttle.undo(keys);
    await audit(db, { caller: null, action: 'password', entity: 'users', recordId: userId });
    return ok({ query: 'Your password has been changed; please sign in' });
  });

  if (!config.strict) {
    app.post('/user/logout', async (request) => {
      const token = sessionTokenOf(request.headers.authorization);
      if (token) await db.deleteFrom('sessions').where('token_hash', '=', sha256(token)).execute();
      return ok({ query: 'Signed out' });
    });
  }
}

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
      .where('parent_id', 'is', null)
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
