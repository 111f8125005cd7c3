/** The upload and connection settings read from the environment (docs/operations.md). */
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { trustedProxies } from '../../server/app';
import { DEFAULT_UPLOAD_POLICY } from '../../server/attachments';
import { DEFAULT_LIMITS } from '../../server/throttle';

describe('upload and connection settings', () => {
  it('default to the documented values', () => {
    const config = readConfig({});
    expect(config.uploads).toEqual(DEFAULT_UPLOAD_POLICY);
    expect(config.uploads).toEqual({ quotaBytes: 250 * 1024 * 1024, graceMs: 24 * 3600_000 });
    expect(config.uploadsPerMinute).toBe(DEFAULT_LIMITS.upload.max);
    expect(config.connectionsPerAddress).toBe(100);
  });

  it('read UPLOAD_QUOTA_MB, UPLOAD_GRACE_HOURS, UPLOADS_PER_MINUTE and MAX_CONNECTIONS_PER_ADDRESS', () => {
    const config = readConfig({ UPLOAD_QUOTA_MB: '5', UPLOAD_GRACE_HOURS: '2', UPLOADS_PER_MINUTE: '7', MAX_CONNECTIONS_PER_ADDRESS: '0' });
    expect(config.uploads).toEqual({ quotaBytes: 5 * 1024 * 1024, graceMs: 2 * 3600_000 });
    expect(config.uploadsPerMinute).toBe(7);
    expect(config.connectionsPerAddress).toBe(0);
  });

  it('lift the per-address cap behind a proxy unless it is set', () => {
    expect(readConfig({ TRUST_PROXY: '1' }).connectionsPerAddress).toBe(0);
    expect(readConfig({ TRUST_PROXY: '1', MAX_CONNECTIONS_PER_ADDRESS: '500' }).connectionsPerAddress).toBe(500);
    expect(readConfig({ TRUST_PROXY: '10.0.0.0/8' }).connectionsPerAddress).toBe(0);
    expect(readConfig({}).connectionsPerAddress).toBe(100);
    expect(readConfig({ TRUST_PROXY: '0' }).connectionsPerAddress).toBe(100);
  });

  it('read TRUST_PROXY as how many proxies stand in front, or their addresses; never as "every hop"', () => {
    expect([undefined, '', '0', '1', '2', '10', '10.0.0.5, 10.0.0.6', 'loopback'].map((v) => readConfig(v === undefined ? {} : { TRUST_PROXY: v }).trustProxy))
      .toEqual([0, 0, 0, 1, 2, 10, '10.0.0.5, 10.0.0.6', 'loopback']);
    // Fastify's trust: n proxies trust hops 0 to n - 1 (the socket's peer is hop 0); none trusts nothing.
    const one = trustedProxies(1) as (address: string, hop: number) => boolean;
    expect([one('10.0.0.9', 0), one('203.0.113.7', 1)]).toEqual([true, false]);
    expect([trustedProxies(0), trustedProxies(undefined), trustedProxies('10.0.0.0/8')]).toEqual([false, false, '10.0.0.0/8']);
  });

  it('keep at least one upload a minute and an hour of grace; ignore what is not a number', () => {
    expect(readConfig({ UPLOADS_PER_MINUTE: '0', UPLOAD_GRACE_HOURS: '0' })).toMatchObject({ uploadsPerMinute: 1, uploads: { graceMs: 3600_000 } });
    expect(readConfig({ UPLOAD_QUOTA_MB: 'lots' }).uploads.quotaBytes).toBe(DEFAULT_UPLOAD_POLICY.quotaBytes);
  });
});
