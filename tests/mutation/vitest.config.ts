/**
 * The tests Stryker runs against each mutant (`npm run test:mutation`): the unit tests only, fast and
 * without a server or a browser page (the jsdom tests of components are left out), so a run stays short
 * on a shared machine. The rule files it mutates are listed in
 * stryker.config.json.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['tests/setup.ts'],
    include: ['tests/unit/**/*.test.ts'],
    testTimeout: 60000,
    allowOnly: false,
  },
});
