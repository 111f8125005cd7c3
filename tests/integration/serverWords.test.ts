/**
 * The server's messages in the viewer's language (issue 23): an answer whose `query` is a known
 * text names its `server.*` key and values in the `i18n` extension; strict contract mode sends none.
 * (The harness also holds every answer of the suite to the catalogue: a `query` that matches no
 * template fails the test that caused it.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { demo, startServer, type TestServer } from './harness';

const format = (key: string, values: Record<string, string>) =>
  Object.entries(values).reduce((text, [name, value]) => text.replace(`%{${name}}`, value), (en.server as Record<string, unknown>)[key.replace(/^server\./, '')] as string);

describe('message keys beside the English text', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer();
    admin = await s.login(demo.admin.email, demo.admin.password);
  });
  afterAll(() => s.close());

  it('names the key of a refusal, its English being the template', async () => {
    const res = await s.post('/user/terminal', { credential: demo.admin.email, password: 'not the password', source: 'inbuilt', actionType: 'login' });
    expect(res.body.status).toBe(false);
    expect(res.body).toMatchObject({ query: en.server.wrong_credentials, i18n: [{ key: 'server.wrong_credentials', values: {} }] });
  });

  it('carries the values of the template, and one key per text a refusal joins', async () => {
    const res = await s.post('/brand', { product_id: 0 }, admin);
    expect(res.http).toBe(400);
    const words = (res.body as { i18n?: { key: string; values: Record<string, string> }[] }).i18n;
    expect(words?.map((w) => w.key)).toEqual(['server.required', 'server.required']);
    expect(words?.map((w) => w.values.field)).toEqual(['name', 'type']);
    expect(words!.map((w) => format(w.key, w.values)).join('; ')).toBe(res.body.query);
  });

  it('names the key of a success with the record name as a value', async () => {
    const res = await s.post('/brand', { name: `Words ${Date.now()}`, type: 'popular', product_id: 0 }, admin);
    expect(res.body).toMatchObject({ status: true, query: 'Brand created successfully', i18n: [{ key: 'server.created', values: { title: 'Brand' } }] });
  });
});

describe('strict contract mode', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ strict: true });
  });
  afterAll(() => s.close());

  it('sends the text alone', async () => {
    const res = await s.post('/user/terminal', { credential: demo.admin.email, password: 'not the password', source: 'inbuilt', actionType: 'login' });
    expect(res.body.query).toBe(en.server.wrong_credentials);
    expect(res.body).not.toHaveProperty('i18n');
  });
});
