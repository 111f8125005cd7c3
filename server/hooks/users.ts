/**
 * Users' rules live in their own routes (server/routes/users.ts); the hooks only write the demo
 * accounts (resources/users/demo.ts) as an account is made: the password hashed, the accesses granted.
 */
import type { DB, Row } from '../db';
import { createUser } from '../routes/users';
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  async insertDemo({ db }, row) {
    const { name, email, phone, password, abilities, granted, is_active } = row as {
      name: string; email: string; phone: string; password: string; abilities: number[]; granted?: string[]; is_active?: number;
    };
    const user = await createUser(db, { name, email, phone, password, abilities, granted });
    return is_active === 0 ? blocked(db, user) : user;
  },
};

/** A blacklisted account: made, then switched off, as an admin would. */
async function blocked(db: DB, user: Row): Promise<Row> {
  return db.updateTable('users').set({ is_active: 0 }).where('id', '=', Number(user.id)).returningAll().executeTakeFirstOrThrow();
}
