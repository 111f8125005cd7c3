/**
 * Nothing phones home at install. npm runs a dependency's install scripts only when package.json's
 * `allowScripts` names it, so every package of the lock file that has one must be named there on
 * purpose, and no package known to report installs (Scarf, through swagger-ui-dist) may be;
 * Scarf is also told no in package.json (`scarfSettings`), which it reads even where scripts run.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Packages whose install script reports the install to someone. */
const REPORTERS = ['@scarf/scarf'];

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean>; scarfSettings?: { enabled?: boolean } };
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
/** 'node_modules/a/node_modules/@b/c' → '@b/c'. */
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
const withScripts = [...new Set(Object.entries(lock.packages).filter(([key, p]) => key && p.hasInstallScript).map(([key]) => nameOf(key)))];
const allowed = new Set(Object.entries(pkg.allowScripts ?? {}).filter(([, on]) => on).map(([name]) => name));

describe('install scripts', () => {
  it('run only for the packages allowScripts names, never for a reporter', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of REPORTERS) expect(allowed.has(name), name).toBe(false);
    const unreviewed = withScripts.filter((name) => !allowed.has(name) && !REPORTERS.includes(name));
    expect(unreviewed, 'packages with an install script that allowScripts neither allows nor that are known reporters').toEqual([]);
  });

  it('Scarf is turned off in package.json', () => {
    expect(pkg.scarfSettings?.enabled).toBe(false);
  });
});
