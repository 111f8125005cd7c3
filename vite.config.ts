/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/directory': { target: apiTarget, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', sourcemap: false },
  test: {
    environment: 'node',
    setupFiles: ['tests/setup.ts'],
    testTimeout: 20000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'] } },
      {
        // The integration suite again on a real PostgreSQL (embedded, started by the global setup).
        // Files that never touch the database (the offline directory) or are SQLite-file specific
        // (the CLI on DATA_DIR) run once, above.
        extends: true,
        test: {
          name: 'postgres',
          include: ['tests/integration/**/*.test.ts'],
          exclude: ['tests/integration/directory.test.ts', 'tests/integration/cli.test.ts'],
          globalSetup: ['tests/integration/postgres.setup.ts'],
          env: { TEST_DATABASE: 'postgres' },
        },
      },
    ],
  },
});
