/**
 * The tests Stryker runs against each mutant (`npm run test:mutation`): the unit tests of the rule
 * files listed in stryker.config.json, fast and without a server or a browser page, so a run stays
 * short on a shared machine. A new rule file's unit test is added here beside it.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['tests/setup.ts'],
    include: [
      'tests/unit/{roles,money,cart,guard,records,limits,passwords,search,screenRules,spec,authProvider,registry,ledger,secondFactor,topShops}.test.ts',
    ],
    testTimeout: 60000,
    allowOnly: false,
  },
});
