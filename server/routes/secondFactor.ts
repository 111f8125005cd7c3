/**
 * A user's own second factors (issue 26): `POST /user/second-factor {action, …}`.
 * - status: which factors the caller has (authenticator, passkeys by name, recovery codes left);
 * - totp-begin: a new secret, answered once as `{secret, uri}` (base32, otpauth://);
 * - totp-confirm {code}: the first code turns it on; answers `{recovery_codes}` (10, shown once);
 * - totp-off {code}: needs a current code (or a recovery code);
 * - verify {code}: step-up, the session counts as fresh for 5 minutes;
 * - passkey-*: see server/passkeys.ts.
 * And an admin's `POST /user/second-factor/reset {id}`: another user's factors removed, under the
 * rule of every change to another user (ensureMayManage), with a fresh second factor of the admin's
 * own, audited.
 * Codes count against the account's sign-in attempts (the same throttle as passwords).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PATHS } from '../../contract';
import { bodyOf, type AppContext } from '../context';
import { audit } from '../audit';
import { closeSessions, type Caller } from '../auth';
import { now, type Row } from '../db';
import { ApiError, badRequest, forbidden, notFound } from '../errors';
import { authorize, ensureMayManage, requireCaller } from '../guard';
import { readId } from '../records';
import { registry } from '../registry';
import {
  SecondFactorNeeded, factorsOfUser, factorState, kindsOf, type FactorKind, markFresh, newTotp, pendingTotp, removeFactors, replaceRecoveryCodes, requireFreshSecondFactor, requireRecentAuthentication, sealSecret, syncFactors, takeTotp, spendCode,
} from '../secondFactor';
import { addressKey, signInKey, type Limit } from '../throttle';
import { ok } from './common';
import { passkeyActions, passkeyOptions, passwordlessOptions, verifyPasskey, PASSKEY_ACTIONS } from '../passkeys';

export const SECOND_FACTOR_PATH = PATHS.secondFactor;
export const SECOND_FACTOR_RESET_PATH = PATHS.secondFactorReset;
export const TOTP_ACTIONS = ['status', 'totp-begin', 'totp-confirm', 'totp-off', 'verify'] as const;
export const SECOND_FACTOR_ACTIONS = [...TOTP_ACTIONS, ...PASSKEY_ACTIONS] as const;

const USERS = registry.entity('users');
export const WRONG_CODE = 'The code is not correct; please try again';
/** Used when MFA_KEY is not set in demo mode only (main.ts warns); production refuses authenticator setup. */
const DEMO_MFA_KEY = 'demo mode only: set MFA_KEY in production';
const NO_KEY = 'Authenticator codes are not set up on this server: the operator must set MFA_KEY';

/** The key TOTP secrets are sealed with: MFA_KEY, a fixed one in demo mode, or null. */
export const mfaKeyOf = (config: AppContext['config']): string | null => config.mfaKey || (config.demo ? DEMO_MFA_KEY : null);

export async function secondFactorRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, config } = ctx;
  const throttle = ctx.throttle!;
  const clock = ctx.clock ?? Date.now;
  const key = () => {
    const found = mfaKeyOf(config);
    if (!found) throw new ApiError(503, NO_KEY);
    return found;
  };

  /** A code of the caller's, counted as a sign-in attempt of the account until it is right. */
  const checkedCode = async (caller: Caller, body: Row, check: (code: string) => Promise<boolean>) => {
    const code = body.code;
    if (typeof code !== 'string' || code.trim() === '') throw badRequest('code is required');
    if (code.length > 64) throw badRequest('code must be at most 64 characters');
    const keys: [string, Limit][] = [[signInKey(caller.id), throttle.limits.loginAccount]];
    await throttle.take(keys);
    if (!(await check(code))) throw forbidden(WRONG_CODE);
    await throttle.undo(keys);
  };

  const presentState = async (userId: number) => {
    const state = await factorState(db, userId);
    const passkeys = await db
      .selectFrom('passkeys').select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId).orderBy('id').execute();
    return { totp: state.totp, passkeys, recovery_left: state.recoveryLeft, second_factor: kindsOf(state) };
  };

  const passkeys = passkeyActions(ctx);

  app.post(SECOND_FACTOR_PATH, async (request: FastifyRequest) => {
    const caller = requireCaller(request.caller);
    const body = bodyOf(request);
    const action = body.action;
    if (typeof action !== 'string' || !(SECOND_FACTOR_ACTIONS as readonly string[]).includes(action)) {
      throw badRequest(`action must be one of ${SECOND_FACTOR_ACTIONS.join(', ')}`);
    }
    switch (action) {
      case 'status':
        return ok({ detail: await presentState(caller.id) });
      case 'totp-begin': {
        const state = await factorState(db, caller.id);
        if (state.totp) throw forbidden('Authenticator codes are already on; turn them off first');
        // Adding a factor beside a passkey needs that passkey, fresh; a first factor, a recent sign-in.
        await requireRecentAuthentication(caller, clock());
        const { secret, uri } = newTotp(String(caller.user.email));
        const sealed = sealSecret(key(), secret);
        await db.deleteFrom('second_factors').where('user_id', '=', caller.id).where('kind', '=', 'totp').execute();
        await db.insertInto('second_factors').values({ user_id: caller.id, kind: 'totp', secret: sealed, confirmed_at: null, last_step: null, created_at: now() }).execute();
        return ok({ query: 'Scan the code with your authenticator app, then enter the code it shows', detail: { secret, uri } });
      }
      case 'totp-confirm': {
        const pending = await pendingTotp(db, key(), caller.id);
        if (!pending) throw badRequest('Start setting up authenticator codes first');
        await checkedCode(caller, body, (code) => takeTotp(db, pending, code.trim(), clock()));
        const codes = await db.transaction().execute(async (trx) => {
          await trx.updateTable('second_factors').set({ confirmed_at: now() }).where('id', '=', pending.id).execute();
          const fresh = await replaceRecoveryCodes(trx, caller.id);
          await syncFactors(trx, caller.id);
          await audit(trx, { caller, action: 'second-factor', entity: 'users', recordId: caller.id, before: { second_factor: caller.user.second_factor ?? null }, after: { second_factor: 'totp on' } });
          return fresh;
        });
        await markFresh(db, caller, clock());
        return ok({ query: 'Authenticator codes are on; keep your recovery codes somewhere safe', detail: { recovery_codes: codes } });
      }
      case 'totp-off': {
        const state = await factorState(db, caller.id);
        if (!state.totp) throw badRequest('Authenticator codes are not on');
        await checkedCode(caller, body, async (code) => (await spendCode(db, key(), caller.id, code, clock())) !== null);
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('second_factors').where('user_id', '=', caller.id).where('kind', '=', 'totp').execute();
          // Recovery codes stand in for a factor: without any factor left they go too.
          if (!state.passkeys) await trx.deleteFrom('recovery_codes').where('user_id', '=', caller.id).execute();
          await syncFactors(trx, caller.id);
          await audit(trx, { caller, action: 'second-factor', entity: 'users', recordId: caller.id, before: { second_factor: caller.user.second_factor ?? null }, after: { second_factor: 'totp off' } });
        });
        return ok({ query: 'Authenticator codes are off', detail: await presentState(caller.id) });
      }
      case 'verify': {
        const state = await factorState(db, caller.id);
        if (!kindsOf(state).length) throw badRequest('You have no second factor to confirm with');
        await checkedCode(caller, body, async (code) => (await spendCode(db, mfaKeyOf(config) ?? '', caller.id, code, clock())) !== null);
        await markFresh(db, caller, clock());
        return ok({ query: 'Confirmed' });
      }
      default:
        return passkeys(action, caller, body, request);
    }
  });

  // A passkey sign-in without a password begins here (an extension: absent in strict mode).
  if (!config.strict) {
    app.post(PATHS.passkeyOptions, async (request) => {
      await throttle.take([[addressKey('passkey-options', request.ip), throttle.limits.loginAddress]]);
      return ok({ detail: await passwordlessOptions(ctx, clock()) });
    });
  }

  app.post(SECOND_FACTOR_RESET_PATH, async (request) => {
    const caller = requireCaller(request.caller);
    authorize(USERS.rules.update, USERS, caller);
    const id = readId(bodyOf(request).id);
    const target = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!target) throw notFound(`No user has id ${id}`);
    ensureMayManage(caller, target, 'Turn your own second factor off from your account page');
    await requireFreshSecondFactor(caller, clock());
    await db.transaction().execute(async (trx) => {
      await removeFactors(trx, id);
      // A lost or stolen factor: whoever holds one of the user's sessions is signed out too.
      await closeSessions(trx, id);
      await audit(trx, { caller, action: 'second-factor', entity: 'users', recordId: id, before: { second_factor: target.second_factor ?? null }, after: { second_factor: null } });
    });
    return ok({ query: 'Second factor reset: the user signs in with their password and sets one up again' });
  });
}

export const CODE_NEEDED = 'Enter the code from your authenticator app or a recovery code, or use your passkey';

/**
 * The second step of `/user/terminal` once the password is right: nothing when the account has no
 * second factor; otherwise the `otp` (a current code or a recovery code) or `passkey` (an assertion)
 * of the body must be good. Without either it answers 401 with the factors in `detail` (and passkey
 * options when the user has passkeys), taking back the attempt (the password was right); a wrong
 * one stays counted against the account. Answers the factor used.
 */
export async function secondFactorAtSignIn(ctx: AppContext, user: Row, body: Row, keys: [string, Limit][]): Promise<FactorKind | null> {
  const kinds = factorsOfUser(user);
  if (!kinds.length) return null;
  const userId = Number(user.id);
  const clock = ctx.clock ?? Date.now;
  const { otp, passkey } = body;
  if ((otp === undefined || otp === null || otp === '') && (passkey === undefined || passkey === null)) {
    await ctx.throttle!.undo(keys);
    const extra = kinds.includes('passkey') ? { passkey: await passkeyOptions(ctx, userId, 'sign-in', clock()) } : {};
    throw new SecondFactorNeeded(CODE_NEEDED, kinds, extra);
  }
  if (passkey !== undefined && passkey !== null) {
    if (await verifyPasskey(ctx, userId, passkey, 'sign-in', clock())) return 'passkey';
  } else {
    if (typeof otp !== 'string' || otp.length > 64) throw badRequest('otp must be a code of at most 64 characters');
    const used = await spendCode(ctx.db, mfaKeyOf(ctx.config) ?? '', userId, otp, clock());
    if (used) return used;
  }
  throw new SecondFactorNeeded(WRONG_CODE, kinds);
}
