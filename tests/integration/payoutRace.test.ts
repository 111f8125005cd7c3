/**
 * Two payouts asked for at once for one shop pay once (issue 28): many concurrent POST /payout,
 * split between two API processes on one database (PostgreSQL in its pass, one SQLite file here).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';
import { post } from '../../server/ledger/core';
import { startProcess, type ServerProcess } from '../../server/dev/process';
import { demo, dialect, freshDatabase, shopBody } from './harness';

const started: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

describe(`payouts under concurrency on ${dialect}`, () => {
  it('pays a shop once when payouts for it are asked for at once through two processes', async () => {
    const fresh = await freshDatabase();
    await fresh.database.close();
    const env: Record<string, string> = fresh.url ? { DATABASE_URL: fresh.url } : { DATA_DIR: fresh.dir };
    const one = await startProcess(env);
    started.push(one);
    const two = await startProcess(env);
    started.push(two);
    const database = fresh.url ? openDatabase({ url: fresh.url }) : openDatabase({ file: `${fresh.dir}/marketplace.sqlite` });
    try {
      const db = database.db;
      // A shop of the test's own, with the bank details a payout needs.
      const made = await one.post('/shop', shopBody('Raced shop'), await one.login(demo.seller.email, demo.seller.password));
      expect(made.body.status).toBe(true);
      const shopId = Number(made.body.detail.id);
      // 250.00 XTS earned and released for this shop (a currency of its own, so demo data plays no part).
      const at = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await post(trx, {
          key: 'race:sale', kind: 'sale', currency: 'XTS', shopId, at,
          postings: [{ account: 'buyer_payments', shopId, amount: -25000 }, { account: 'pending', shopId, amount: 25000 }],
        });
        await post(trx, {
          key: 'race:release', kind: 'release', currency: 'XTS', shopId, at,
          postings: [{ account: 'pending', shopId, amount: -25000 }, { account: 'available', shopId, amount: 25000 }],
        });
      });
      const tokens = [await one.login(demo.admin.email, demo.admin.password), await two.login(demo.admin.email, demo.admin.password)];
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? two : one).post('/payout', { shop_id: shopId, currency: 'XTS' }, tokens[i % 2])),
      );
      const paid = answers.filter((a) => a.body.status === true);
      expect(paid).toHaveLength(1);
      expect(paid[0].body.detail.amount).toBe(25000);
      expect(answers.filter((a) => a.body.status !== true).map((a) => a.http)).toEqual(Array(7).fill(400));
      const rows = await db.selectFrom('payouts').select(['amount']).where('shop_id', '=', shopId).where('currency', '=', 'XTS').execute();
      expect(rows.map((r) => Number(r.amount))).toEqual([25000]);
      const balances = await db.selectFrom('ledger_balances').select(['account', 'amount']).where('shop_id', '=', shopId).where('currency', '=', 'XTS').orderBy('account').execute();
      expect(balances.map((b) => [b.account, Number(b.amount)])).toEqual([['available', 0], ['paid', 25000], ['pending', 0]]);
    } finally {
      await database.close();
      await fresh.drop();
    }
  });
});
