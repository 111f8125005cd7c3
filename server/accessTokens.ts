/**
 * Access tokens that arrive with a new entity (a resource file added to an existing marketplace).
 * An admin's granted accesses are written when they are granted, so a token declared later would
 * reach nobody, and Assign Roles grants only what the granting admin holds: nobody could ever grant
 * it. On start, tokens the database has never seen are granted to every full admin (an admin who
 * holds every token it knew), each grant written to the audit log; partial admins are left as they
 * are, and a full admin can then grant the new access to others.
 */
import { parseAccesses, roleOf, type Registry } from '../contract';
import { audit } from './audit';
import { now, type DB } from './db';

/** The tokens the database has seen, one row each (a server table, see db/serverTables.ts). */
export const ACCESS_TOKENS = 'access_tokens';

/** What changed: the tokens seen for the first time and the admins who were granted them. */
export interface TokenMigration {
  added: string[];
  grantedTo: number[];
}

const lower = (tokens: readonly string[]) => tokens.map((t) => t.toLowerCase());

/**
 * Records the registry's assignable tokens and grants the new ones to full admins. Run once per
 * start, before serving, inside the start-up's exclusive transaction (several processes starting
 * together grant once). A database that never recorded its tokens counts as known every token some
 * user already holds, so tokens nobody holds yet are the new ones.
 */
export async function grantNewAccessTokens(db: DB, registry: Registry): Promise<TokenMigration> {
  const assignable = lower(registry.assignable);
  const users = await db.selectFrom('users').select(['id', 'abilities', 'granted_accesses']).execute();
  const recorded = (await db.selectFrom(ACCESS_TOKENS).select('token').execute()).map((r) => String(r.token));
  const known = new Set(
    recorded.length ? recorded : users.flatMap((u) => lower(parseAccesses(u.granted_accesses))),
  );
  const added = assignable.filter((t) => !known.has(t));
  const stillKnown = assignable.filter((t) => known.has(t));
  const grantedTo: number[] = [];
  if (added.length) {
    for (const user of users) {
      if (roleOf(user.abilities) !== 'admin') continue;
      const held = parseAccesses(user.granted_accesses);
      const heldLower = new Set(lower(held));
      if (!stillKnown.every((t) => heldLower.has(t))) continue;
      const granted = [...held, ...added.filter((t) => !heldLower.has(t))];
      await db.updateTable('users').set({ granted_accesses: JSON.stringify(granted), updated_at: now() }).where('id', '=', user.id).execute();
      await audit(db, {
        caller: null, action: 'roles', entity: 'users', recordId: Number(user.id),
        before: { granted_accesses: JSON.stringify(held) }, after: { granted_accesses: JSON.stringify(granted) },
      });
      grantedTo.push(Number(user.id));
    }
  }
  const stamp = now();
  const toRecord = assignable.filter((t) => !recorded.includes(t));
  if (toRecord.length) await db.insertInto(ACCESS_TOKENS).values(toRecord.map((token) => ({ token, created_at: stamp }))).execute();
  const gone = recorded.filter((t) => !assignable.includes(t));
  if (gone.length) await db.deleteFrom(ACCESS_TOKENS).where('token', 'in', gone).execute();
  return { added, grantedTo };
}
