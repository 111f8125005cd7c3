/**
 * The envelope's `i18n` extension: the `server.*` message keys and values of its `query`, found by
 * the matcher the console uses (i18n/server.ts), so the catalogue is written once and `query`
 * keeps the spec's exact English. Strict contract mode sends no extension (server/app.ts).
 */
import { describeServerText } from '../i18n/server';

/** An envelope with its query's keys added; any other payload as it is. */
export function withServerWords(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  const answer = payload as Record<string, unknown>;
  if (typeof answer.status !== 'boolean' || typeof answer.query !== 'string' || 'i18n' in answer) return payload;
  const words = describeServerText(answer.query);
  return words ? { ...answer, i18n: words } : payload;
}
