import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8181);
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

/** Debian's Chromium (never a downloaded browser); CHROMIUM_PATH overrides. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // Generous: in npm test the browser runs share two cores with the Node 24 suite (tests/beside.sh).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'npx tsx server/main.ts',
    url: `http://127.0.0.1:${port}/config.json`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', CONTRACT_STRICT: process.env.CONTRACT_STRICT ?? '',
      // 'simple-rest' runs the console on the REST dialect (the server serves config.json with it).
      DATA_DIALECT: process.env.DATA_DIALECT ?? '',
      // Earnings of a delivered order are available at once, so a payout can be made in a test.
      PAYOUT_HOLD_DAYS: '0',
      // The tests register many accounts from one address within a minute; the attempt limits
      // themselves are tested over HTTP (tests/integration/throttle.test.ts).
      RATE_LIMIT_FACTOR: '10',
    },
  },
});
