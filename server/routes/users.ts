/**
 * User administration (SPEC §7.2, DESIGN D6–D8): the users call, edits, blacklisting and granted
 * accesses, with the rules that guard privileges; and the helpers the session routes share
 * (server/routes/sessions.ts: registering, signing in and out, passwords).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasAccess, parseAbilities, parseAccesses, roleOf } from '../../contract';
import { bodyOf, type AppContext } from '../context';
import { readOne } from './entities';
import { registry } from '../registry';
import { audit, type AuditAction } from '../audit';
import { closeSessions, forgetResetLinks, hashPassword, verifyPassword, type Caller } from '../auth';
import { now, type DB, type Row } from '../db';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { authorize, ensureMayManage, requireCaller } from '../guard';
import { coerce, readId, readPayload } from '../records';
import { listPage, presentMany } from '../store';
import { formFields } from '../uploads';
import { Throttle, signInKey, type Limit } from '../throttle';
import { ok, readListQuery } from './common';
import { factorsOfUser, requireFreshSecondFactor } from '../secondFactor';

/** The user's address (SPEC §3.2 userForm): the default delivery address at checkout. */
const ADDRESS = ['street_name', 'city', 'state', 'country', 'zip'] as const;

const USERS = registry.entity('users');
export const PHONE = /^\+?[0-9][0-9 ()-]{3,30}$/;

export function text(body: Row, name: string, opts: { required?: boolean; max?: number; type?: 'email' } = {}): string {
  const result = coerce(name, { type: opts.type ?? 'string', max: opts.max }, body[name] ?? null);
  if ('error' in result) throw badRequest(result.error);
  const value = (result.ok as string | null) ?? '';
  if (opts.required && value === '') throw badRequest(`${name.replace(/_/g, ' ')} is required`);
  return value;
}

/** Abilities as a list of known ability numbers, from a JSON string or an array. */
export function abilitiesOf(value: unknown): number[] {
  const list = parseAbilities(value);
  const raw = typeof value === 'string' ? value.trim() : value;
  if ((Array.isArray(raw) && raw.length !== list.length) || list.some((n) => n < 1 || n > 3) || list.length === 0) {
    throw badRequest('abilities must be a list of the numbers 1, 2 and 3, such as [1,2]');
  }
  return [...new Set(list)].sort();
}

async function presentUser(db: DB, user: Row) {
  const [out] = await presentMany(db, USERS, [user]);
  return out;
}

export async function userById(db: DB, id: number): Promise<Row> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user) throw notFound(`No user has id ${id}`);
  return user;
}

export async function ensureUnique(db: DB, email: string, phone: string, exceptId?: number) {
  let q = db.selectFrom('users').select(['id', 'email', 'phone']).where((eb) =>
    phone ? eb.or([eb('email', '=', email), eb('phone', '=', phone)]) : eb('email', '=', email),
  );
  if (exceptId) q = q.where('id', '!=', exceptId);
  const clash = await q.executeTakeFirst();
  if (clash) throw conflict(clash.email === email ? 'This email is already registered' : 'This phone number is already registered');
}

/** An admin holding the Users screen's access, or nobody. */
const usersAdmin = (caller: Caller | null) => authorize(USERS.rules.update, USERS, caller);

/** An admin's call about another user they may manage: the body, the caller and that user. */
async function aboutAnotherUser(db: DB, request: FastifyRequest, selfMessage: string) {
  const body = bodyOf(request);
  const caller = requireCaller(request.caller);
  usersAdmin(caller);
  const id = readId(body.id);
  if (id === caller.id) throw forbidden(selfMessage);
  const target = await userById(db, id);
  ensureMayManage(caller, target);
  return { body, caller, id, target };
}

/**
 * One's own email or password changes only with the current password; a wrong one counts as a
 * failed sign-in of the account.
 */
export async function currentPassword(throttle: Throttle, body: Row, user: Row, missing: string): Promise<void> {
  const keys: [string, Limit][] = [[signInKey(Number(user.id)), throttle.limits.loginAccount]];
  await throttle.take(keys);
  const given = body.current_password;
  if (typeof given !== 'string' || given === '') throw badRequest(missing);
  if (given.length > 200 || !(await verifyPassword(given, user.password_hash))) throw forbidden('The current password is not correct');
  await throttle.undo(keys);
}

/**
 * Re-authentication before one's own sign-in identifiers change (ASVS 7.5.1): the current password;
 * or, for a user with a second factor, that factor presented in this session within 5 minutes (the
 * step-up answer asks for it when it is not).
 */
export async function reauthenticate(throttle: Throttle, caller: Caller, body: Row, missing: string, at: number): Promise<void> {
  const given = body.current_password;
  if ((given === undefined || given === null || given === '') && factorsOfUser(caller.user).length > 0) {
    return requireFreshSecondFactor(caller, at);
  }
  await currentPassword(throttle, body, caller.user, missing);
}

/** Every reset link of a user still outstanding stops working (password or email changed). */
export async function endResetTokens(db: DB, userId: number): Promise<void> {
  await forgetResetLinks(db, userId);
  await db.updateTable('password_resets').set({ used_at: now() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** Writes a user's columns and answers the user with a message. */
async function saveUser(db: DB, id: number, values: Row, query: string, by: { caller: Caller; action: AuditAction }) {
  return db.transaction().execute(async (trx) => {
    const before = await userById(trx, id);
    const user = await trx.updateTable('users').set({ ...values, updated_at: now() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    await audit(trx, { caller: by.caller, action: by.action, entity: 'users', recordId: id, before, after: user });
    return ok({ query, detail: await presentUser(trx, user) });
  });
}

export async function createUser(
  db: DB,
  fields: { name: string; email: string; phone: string; password: string; abilities: number[]; granted?: string[]; passwordHash?: string },
): Promise<Row> {
  const stamp = now();
  return db
    .insertInto('users')
    .values({
      name: fields.name, email: fields.email.toLowerCase(), phone: fields.phone,
      password_hash: fields.passwordHash ?? (await hashPassword(fields.password)),
      abilities: JSON.stringify(fields.abilities), granted_accesses: JSON.stringify(fields.granted ?? []),
      is_active: 1, source: 'inbuilt', created_at: stamp, updated_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function userRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, config, throttle = new Throttle(db), services, registry: resources } = ctx;
  const clock = ctx.clock ?? Date.now;

  // The console sends this call as a multipart form (SPEC §7.2); JSON works too.
  app.post('/users', { config: { multipart: true } }, async (request) => {
    const body = request.isMultipart() ? await formFields(request) : bodyOf(request);
    const caller = requireCaller(request.caller);
    if (body.id !== undefined && body.id !== '') {
      const id = readId(body.id);
      if (id !== caller.id) usersAdmin(caller);
      return ok({ detail: await presentUser(db, await userById(db, id)) });
    }
    usersAdmin(caller);
    return ok({ HLL: await listPage(db, USERS, { kind: 'all' }, readListQuery(body, config.strict)) });
  });

  /** The edit call (SPEC §7.2) with its privilege rules; the REST face's PUT of a user too. */
  const edit = async (who: Caller | null, body: Row) => {
    const caller = requireCaller(who);
    const id = readId(body.id);
    const self = id === caller.id;
    if (!self) usersAdmin(caller);
    const before = await userById(db, id);
    if (!self) ensureMayManage(caller, before);
    const values = readPayload(USERS, body, { create: false, only: ['name', 'email', 'phone', 'applications', 'is_active', ...ADDRESS] });
    if (body.abilities !== undefined) {
      const abilities = abilitiesOf(body.abilities);
      if (JSON.stringify(abilities) !== JSON.stringify(abilitiesOf(before.abilities))) {
        if (self) throw forbidden('You cannot change your own abilities');
        values.abilities = JSON.stringify(abilities);
        // A demotion clears granted accesses: a later promotion starts from none.
        if (roleOf(abilities) !== 'admin') values.granted_accesses = '[]';
      }
    }
    if (values.is_active !== undefined && values.is_active !== Number(before.is_active)) {
      if (self) throw forbidden('You cannot blacklist your own account');
    }
    // Roles and blacklisting ask for a fresh second factor (step-up), when the admin has one.
    if (values.abilities !== undefined || (values.is_active !== undefined && values.is_active !== Number(before.is_active))) {
      await requireFreshSecondFactor(caller, clock());
    }
    if (typeof values.email === 'string') values.email = values.email.toLowerCase();
    const emailChanged = typeof values.email === 'string' && values.email !== String(before.email);
    const phoneChanged = values.phone !== undefined && String(values.phone ?? '') !== String(before.phone ?? '');
    // The identifiers one signs in with change only after proving who one is again (ASVS 7.5.1).
    if (self && (emailChanged || phoneChanged)) {
      const missing = emailChanged ? 'Enter your current password to change your email' : 'Enter your current password to change your phone number';
      await reauthenticate(throttle, caller, body, missing, clock());
    }
    await ensureUnique(db, String(values.email ?? before.email), String(values.phone ?? before.phone ?? ''), id);
    if (values.is_active === 0 && Number(before.is_active)) await closeSessions(db, id);
    if (emailChanged) await endResetTokens(db, id);
    return saveUser(db, id, values, 'User updated successfully', { caller, action: 'update' });
  };
  app.post('/user/edit', async (request) => edit(request.caller, bodyOf(request)));

  // Users as the REST face reads and edits them: the same guard and rules as the users and edit calls.
  services.set('users', {
    entity: USERS,
    creates: false,
    deletes: false,
    // The list is the Users screen's; one's own record and one's own edit are any signed-in user's.
    may: (op, caller) => void (op === 'read' ? usersAdmin(caller) : requireCaller(caller)),
    roles: (op) => (op === 'read' ? ['admin'] : ['signed-in', 'admin']),
    readScope: (caller) => usersAdmin(caller),
    list: async (caller, q) => listPage(db, USERS, usersAdmin(caller), q),
    one: async (caller, id) => {
      const who = requireCaller(caller);
      return readOne(db, USERS, id === who.id ? { kind: 'all' } : usersAdmin(who), id);
    },
    save: async (caller, body) => {
      if (body.id === undefined) throw forbidden('Accounts are created by registering (POST /user)');
      return edit(caller, body);
    },
  });

  app.post('/user/status', async (request) => {
    const { body, caller, id, target: before } = await aboutAnotherUser(db, request, 'You cannot blacklist your own account');
    const given = body.is_active === undefined ? undefined : coerce('is_active', USERS.fields.is_active, body.is_active);
    if (given && 'error' in given) throw badRequest(given.error);
    const active = given ? Number(given.ok) : Number(before.is_active) ? 0 : 1;
    await requireFreshSecondFactor(caller, clock());
    if (!active) await closeSessions(db, id);
    return saveUser(db, id, { is_active: active }, active ? 'User activated' : 'User blacklisted', { caller, action: 'blacklist' });
  });

  app.post('/user/assign-role', async (request) => {
    const { body, caller, id } = await aboutAnotherUser(db, request, 'You cannot grant accesses to yourself');
    const raw = body.granted_accesses;
    const tokens = parseAccesses(raw);
    const rawList = typeof raw === 'string' ? (() => { try { return JSON.parse(raw); } catch { return null; } })() : raw;
    if (!Array.isArray(rawList) || rawList.length !== tokens.length) throw badRequest('granted_accesses must be a list of access names');
    const unknown = tokens.filter((t) => !resources.assignable.includes(t.toLowerCase()));
    if (unknown.length) throw badRequest(`These cannot be assigned: ${unknown.join(', ')}`);
    const notHeld = tokens.filter((t) => !hasAccess(caller.user.granted_accesses, t));
    if (notHeld.length) throw forbidden(`You can only grant accesses you hold yourself: ${notHeld.join(', ')}`);
    const granted = JSON.stringify([...new Set(tokens.map((t) => t.toLowerCase()))]);
    await requireFreshSecondFactor(caller, clock());
    return saveUser(db, id, { granted_accesses: granted }, 'Roles assigned successfully', { caller, action: 'roles' });
  });
}
