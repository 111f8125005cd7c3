/**
 * A bare Fastify, the yardstick of a repeated page: one process answering every POST with the same
 * bytes from memory (the file BARE_PAYLOAD names, with BARE_ENCODING as its Content-Encoding when
 * set), as JSON, on 127.0.0.1:PORT. No session check, no logging, no database: what Node and Fastify
 * alone cost per request.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const payload = fs.readFileSync(process.env.BARE_PAYLOAD!);
const encoding = process.env.BARE_ENCODING;
const app = Fastify({ logger: false });
app.post('/*', (_request, reply) => {
  if (encoding) void reply.header('Content-Encoding', encoding).header('Vary', 'accept-encoding');
  void reply.type('application/json; charset=utf-8').send(payload);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare Fastify listening');
