import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { keptAnswers, ok } from '../../server/routes/common';

describe('kept answers', () => {
  it('serialize a kept value once, send the same JSON text each time, and a new value anew', async () => {
    let built = 0;
    const answer = keptAnswers((page: { data: number[] }) => (built++, ok({ HLL: page })));
    let kept = { data: [1, 2, 3] };
    const app = Fastify();
    app.post('/list', async (_request, reply) => answer(reply, kept));
    const ask = () => app.inject({ method: 'POST', url: '/list', payload: {} });
    const first = await ask();
    const again = await ask();
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json()).toEqual({ status: true, query: '', detail: null, reset_token: null, HLL: { data: [1, 2, 3] } });
    expect(again.body).toBe(first.body);
    expect(built).toBe(1);
    kept = { data: [4] };
    expect((await ask()).json().HLL).toEqual({ data: [4] });
    expect(built).toBe(2);
    await app.close();
  });
});
