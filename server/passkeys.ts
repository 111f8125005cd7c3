/**
 * Passkeys (WebAuthn, issue 26) with @simplewebauthn/server: several per user, named and removable,
 * as a second factor at sign-in and for step-up. The relying party is the console's public address
 * (PUBLIC_URL): its host name is the RP ID and its origin the only one accepted. Challenges are kept
 * in the database (any API process can finish what another began), used once and good for 5 minutes.
 *
 * Actions of `POST /user/second-factor`:
 * - passkey-begin {}: registration options for navigator.credentials.create;
 * - passkey-finish {credential, name}: the browser's answer registers the passkey;
 * - passkey-remove {id}: removes one of the caller's passkeys;
 * - passkey-options {}: authentication options (step-up), passkey-verify {credential}: step-up done.
 */
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AppContext } from './context';
import { audit } from './audit';
import type { Caller } from './auth';
import { now, type DB, type Row } from './db';
import { badRequest, forbidden } from './errors';
import { isObject, readId } from './records';
import { factorState, markFresh, replaceRecoveryCodes, requireFreshSecondFactor, requireRecentAuthentication, syncFactors } from './secondFactor';
import { ok } from './routes/common';

export const PASSKEY_ACTIONS = ['passkey-begin', 'passkey-finish', 'passkey-remove', 'passkey-options', 'passkey-verify'] as const;
const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = 'Marketplace console';
export const PASSKEY_REFUSED = 'The passkey was not accepted; please try again';

/**
 * The relying party: PUBLIC_URL's host name and origin. An IP address is no valid passkey domain, so
 * a console published at a loopback address (the demo's http://127.0.0.1:8080) takes its passkeys
 * at http://localhost on the same port.
 */
export function relyingParty(config: AppContext['config']): { id: string; origin: string } {
  const url = new URL(config.publicUrl);
  if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) url.hostname = 'localhost';
  return { id: url.hostname, origin: url.origin };
}

async function keepChallenge(db: DB, challenge: string, userId: number, purpose: string, at: number) {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', at).execute();
  await db.insertInto('webauthn_challenges').values({ challenge, user_id: userId, purpose, expires_at: at + CHALLENGE_MS }).execute();
}

/** A challenge of this user and purpose, still good: used up by being checked. */
const takeChallenge = (db: DB, userId: number, purpose: string, at: number) => async (challenge: string) => {
  const taken = await db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge).where('user_id', '=', userId).where('purpose', '=', purpose).where('expires_at', '>=', at)
    .executeTakeFirst();
  return Number(taken.numDeletedRows) === 1;
};

const credentialOf = (body: Row): Row => {
  if (!isObject(body.credential)) throw badRequest("credential must be the browser's answer, as an object");
  return body.credential;
};

/** Authentication options for one user's passkeys (sign-in or step-up); the challenge is kept. */
export async function passkeyOptions(ctx: AppContext, userId: number, purpose: 'sign-in' | 'step-up', at: number) {
  const rows = await ctx.db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', userId).execute();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx.config).id,
    allowCredentials: rows.map((r) => ({ id: String(r.credential_id), transports: r.transports ? String(r.transports).split(',') : undefined })),
    userVerification: 'preferred',
  });
  await keepChallenge(ctx.db, options.challenge, userId, purpose, at);
  return options;
}

/** Checks an assertion by this stored passkey against a kept challenge; keeps its new counter. */
async function assertedBy(ctx: AppContext, row: Row, given: Row, challenge: (c: string) => Promise<boolean>, userVerified: boolean): Promise<boolean> {
  const rp = relyingParty(ctx.config);
  try {
    const result = await verifyAuthenticationResponse({
      response: given as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: userVerified,
      credential: {
        id: String(row.credential_id),
        publicKey: new Uint8Array(Buffer.from(String(row.public_key), 'base64url')),
        counter: Number(row.counter ?? 0),
        transports: row.transports ? (String(row.transports).split(',') as never) : undefined,
      },
    });
    if (!result.verified) return false;
    await ctx.db.updateTable('passkeys').set({ counter: result.authenticationInfo.newCounter, last_used_at: now() }).where('id', '=', Number(row.id)).execute();
    return true;
  } catch {
    return false;
  }
}

/** Whether the browser's answer is a valid assertion by one of this user's passkeys (its counter is then kept). */
export async function verifyPasskey(ctx: AppContext, userId: number, given: unknown, purpose: 'sign-in' | 'step-up', at: number): Promise<boolean> {
  if (!isObject(given) || typeof given.id !== 'string') return false;
  const row = await ctx.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).where('credential_id', '=', given.id).executeTakeFirst();
  return !!row && assertedBy(ctx, row, given, takeChallenge(ctx.db, userId, purpose, at), false);
}

/** No user yet: the challenges of passkey sign-ins without a password are kept under user 0. */
const ANYONE = 0;

/** Options to sign in with a passkey instead of the password: any of the site's passkeys (discoverable), verified by the device. */
export async function passwordlessOptions(ctx: AppContext, at: number) {
  const options = await generateAuthenticationOptions({ rpID: relyingParty(ctx.config).id, userVerification: 'required' });
  await keepChallenge(ctx.db, options.challenge, ANYONE, 'passwordless', at);
  return options;
}

/**
 * The user a passkey sign-in without a password proves, or null: the assertion must answer a kept
 * challenge, come from a stored passkey and say the device verified its user (a PIN or biometrics:
 * the passkey is then two factors in itself).
 */
export async function passwordlessUser(ctx: AppContext, given: unknown, at: number): Promise<Row | null> {
  if (!isObject(given) || typeof given.id !== 'string') return null;
  const row = await ctx.db.selectFrom('passkeys').selectAll().where('credential_id', '=', given.id).executeTakeFirst();
  if (!row || !(await assertedBy(ctx, row, given, takeChallenge(ctx.db, ANYONE, 'passwordless', at), true))) return null;
  return (await ctx.db.selectFrom('users').selectAll().where('id', '=', Number(row.user_id)).executeTakeFirst()) ?? null;
}

/** The passkey actions of `POST /user/second-factor`. */
export function passkeyActions(ctx: AppContext) {
  const { db } = ctx;
  const clock = ctx.clock ?? Date.now;
  return async (action: string, caller: Caller, body: Row, _request: FastifyRequest) => {
    const rp = relyingParty(ctx.config);
    switch (action) {
      case 'passkey-begin': {
        await requireRecentAuthentication(caller, clock());
        const mine = await db.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', caller.id).execute();
        const options = await generateRegistrationOptions({
          rpName: RP_NAME, rpID: rp.id, userName: String(caller.user.email), userDisplayName: String(caller.user.name ?? ''),
          userID: new TextEncoder().encode(`user-${caller.id}`),
          attestationType: 'none',
          excludeCredentials: mine.map((r) => ({ id: String(r.credential_id), transports: r.transports ? String(r.transports).split(',') : undefined })),
          authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        });
        await keepChallenge(db, options.challenge, caller.id, 'register', clock());
        return ok({ detail: options });
      }
      case 'passkey-finish': {
        const credential = credentialOf(body);
        const name = typeof body.name === 'string' && body.name.trim() ? body.name.trim() : 'Passkey';
        if (name.length > 64) throw badRequest('name must be at most 64 characters');
        let result;
        try {
          result = await verifyRegistrationResponse({
            response: credential as unknown as RegistrationResponseJSON,
            expectedChallenge: takeChallenge(db, caller.id, 'register', clock()),
            expectedOrigin: rp.origin,
            expectedRPID: rp.id,
            requireUserVerification: false,
          });
        } catch {
          throw forbidden(PASSKEY_REFUSED);
        }
        if (!result.verified) throw forbidden(PASSKEY_REFUSED);
        const { credential: made } = result.registrationInfo;
        const before = await factorState(db, caller.id);
        const codes = await db.transaction().execute(async (trx) => {
          await trx.insertInto('passkeys').values({
            user_id: caller.id, credential_id: made.id, public_key: Buffer.from(made.publicKey).toString('base64url'), counter: made.counter,
            transports: made.transports?.join(',') ?? null, name, created_at: now(), last_used_at: null,
          }).execute();
          // The first factor comes with recovery codes, as authenticator codes do.
          const fresh = before.recoveryLeft === 0 && !before.totp ? await replaceRecoveryCodes(trx, caller.id) : undefined;
          await syncFactors(trx, caller.id);
          await audit(trx, { caller, action: 'second-factor', entity: 'users', recordId: caller.id, before: {}, after: { passkey: name } });
          return fresh;
        });
        await markFresh(db, caller, clock());
        return ok({ query: 'Passkey added', detail: codes ? { recovery_codes: codes } : {} });
      }
      case 'passkey-remove': {
        await requireFreshSecondFactor(caller, clock());
        const id = readId(body.id);
        const removed = await db.transaction().execute(async (trx) => {
          const gone = await trx.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', caller.id).executeTakeFirst();
          if (Number(gone.numDeletedRows) !== 1) return false;
          const left = await factorState(trx, caller.id);
          if (!left.totp && !left.passkeys) await trx.deleteFrom('recovery_codes').where('user_id', '=', caller.id).execute();
          await syncFactors(trx, caller.id);
          await audit(trx, { caller, action: 'second-factor', entity: 'users', recordId: caller.id, before: { passkey: id }, after: {} });
          return true;
        });
        if (!removed) throw badRequest('You have no passkey with this id');
        return ok({ query: 'Passkey removed' });
      }
      case 'passkey-options':
        return ok({ detail: await passkeyOptions(ctx, caller.id, 'step-up', clock()) });
      case 'passkey-verify': {
        if (!(await verifyPasskey(ctx, caller.id, credentialOf(body), 'step-up', clock()))) throw forbidden(PASSKEY_REFUSED);
        await markFresh(db, caller, clock());
        return ok({ query: 'Confirmed' });
      }
      default:
        throw badRequest('Unknown action');
    }
  };
}
