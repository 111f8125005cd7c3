/**
 * Global setup of the integration suite's PostgreSQL pass: one embedded PostgreSQL server for the
 * whole run (each test server then gets its own database on it), stopped at the end.
 */
import type { TestProject } from 'vitest/node';
import { startLocalPostgres } from '../../server/dev/embeddedPostgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startLocalPostgres();
  project.provide('postgresUrl', server.url());
  return () => server.stop();
}
