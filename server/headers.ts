/**
 * Security headers. The console's pages: a Content-Security-Policy without inline scripts (MUI's
 * emotion needs inline styles), no framing, no sniffing, no referrer (a reset link carries its token
 * in the address). The API: nosniff on every answer (set in app.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Origins the console talks to besides its own, from its run-time config.json. */
function configuredOrigins(staticDir: string): string[] {
  try {
    const config = JSON.parse(fs.readFileSync(path.join(staticDir, 'config.json'), 'utf8')) as Record<string, unknown>;
    const origins = new Set<string>();
    for (const key of ['apiUrl', 'directoryUrl']) {
      const value = config[key];
      if (typeof value === 'string' && /^https?:\/\//i.test(value)) origins.add(new URL(value).origin);
    }
    return [...origins];
  } catch {
    return [];
  }
}

export function consoleHeaders(staticDir: string): Record<string, string> {
  const extra = configuredOrigins(staticDir).join(' ');
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${extra ? ` ${extra}` : ''}`,
    "font-src 'self' data:",
    `connect-src 'self'${extra ? ` ${extra}` : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
}
