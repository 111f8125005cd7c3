/**
 * What a delete may not break. A record other records point at (a shop with products or orders, a
 * category with shops) is not deleted while they do: the answer says what still uses it. Records it
 * owns through its own `many` relations (a category's subcategories) go with it, once nothing uses them.
 */
import type { EntityContract, Registry } from '../contract';
import type { DB } from './db';
import { conflict } from './errors';

/** Entities whose `one` relation points at the entity: [entity, key]. */
function referrers(registry: Registry, target: string): [EntityContract, string][] {
  // Records the target owns (a category's subcategories point back at it) go with it: not a use.
  const owned = (registry.entity(target).relations ?? []).filter((r) => r.kind === 'many');
  return registry.entities.flatMap((e) =>
    (e.relations ?? [])
      .filter((r) => r.kind === 'one' && r.entity === target && r.key in e.fields)
      .filter((r) => !owned.some((o) => o.entity === e.name && o.key === r.key))
      .map((r) => [e, r.key] as [EntityContract, string]),
  );
}

async function usesOf(db: DB, registry: Registry, target: string, ids: number[]): Promise<string[]> {
  if (!ids.length) return [];
  const found: string[] = [];
  for (const [entity, key] of referrers(registry, target)) {
    const row = (await db
      .selectFrom(entity.name)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where(key, 'in', ids)
      .executeTakeFirstOrThrow()) as { count: number | string };
    const count = Number(row.count);
    if (count) found.push(`${count} ${count === 1 ? entity.title.toLowerCase() : `${entity.title.toLowerCase()} records`}`);
  }
  return found;
}

/** Refuses deleting a record still in use; deletes the children it owns with it. */
export async function checkUnreferenced(db: DB, registry: Registry, entity: EntityContract, id: number): Promise<void> {
  const uses = await usesOf(db, registry, entity.name, [id]);
  const owned = (entity.relations ?? []).filter((r) => r.kind === 'many');
  for (const rel of owned) {
    const children = (await db.selectFrom(rel.entity).select('id').where(rel.key, '=', id).execute()).map((r) => Number(r.id));
    uses.push(...(await usesOf(db, registry, rel.entity, children)).map((use) => `${use} (through its ${rel.as})`));
  }
  if (uses.length) {
    throw conflict(`This ${entity.title.toLowerCase()} is still used by ${uses.join(', ')}; change or delete those first`);
  }
  for (const rel of owned) await db.deleteFrom(rel.entity).where(rel.key, '=', id).execute();
}
