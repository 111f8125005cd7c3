/**
 * A throwaway S3-compatible store for tests and the local multi-process setup, from the npm package
 * `s3rver` (nothing downloaded at run time): one bucket, objects in a fresh temporary folder removed
 * on stop. `env` is what an API process is given to store its files there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { freePort } from './process';

export interface LocalObjectStore {
  endpoint: string;
  bucket: string;
  /** FILES_BUCKET, FILES_PATH_STYLE and the AWS SDK's endpoint, region and credentials. */
  env: Record<string, string>;
  /** The folder s3rver keeps the objects in (to show they are in the bucket, not on an API disk). */
  directory: string;
  stop(): Promise<void>;
}

export async function startLocalObjectStore(bucket = 'marketplace-files'): Promise<LocalObjectStore> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-s3-'));
  const port = await freePort();
  const server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint, bucket, directory,
    env: {
      FILES_BUCKET: bucket, FILES_PATH_STYLE: '1', AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: 'us-east-1',
      // s3rver's fixed credentials.
      AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
