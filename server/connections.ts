/**
 * Connections: a new connection that has not sent its first request's headers some seconds after it
 * opened is closed, however its bytes trickle in (Node's socket timeout is pushed back by every byte,
 * and its headers timeout is checked only now and then), a client address
 * holds a bounded number of connections, and a request refused before its body was read is answered
 * with `Connection: close` and its connection closed rather than read to its end — gracefully, as
 * nginx's lingering close does: closing a socket that still has unread bytes sends a reset, and a
 * reset can make the client lose the answer it was just sent (Node 24's fetch then reports only
 * `EPIPE`). So the server ends its side after the answer, reads and throws away whatever of the body
 * still arrives for at most `linger` ms, and closes once the body has ended or that time is up.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface ConnectionLimits {
  /** How long a new connection may take to send its first request's headers, in ms (0: no limit). */
  opening: number;
  /** Connections one client address may hold open (0: no limit). */
  connectionsPerAddress: number;
  /** How long the rest of a refused request's body is read and thrown away before the socket is dropped, in ms. */
  linger: number;
}

export function guardConnections(app: FastifyInstance, limits: ConnectionLimits): void {
  const server: Server = app.server;
  const open = new Map<string, number>();
  const silent = new WeakMap<Socket, NodeJS.Timeout>();

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (limits.connectionsPerAddress > 0 && count > limits.connectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      clearTimeout(silent.get(socket));
    });
    if (limits.opening > 0) {
      const timer = setTimeout(() => socket.destroy(), limits.opening);
      timer.unref();
      silent.set(socket, timer);
    }
  });
  // Its first request arrived: from here the header, request and keep-alive timeouts take over.
  server.on('request', (request: { socket: Socket }) => {
    clearTimeout(silent.get(request.socket));
    silent.delete(request.socket);
  });

  // A refusal sent before the body arrived (401, 403, 413, 429 on an upload) closes the connection:
  // the rest of the body is never kept, and read only as long as `linger` allows.
  const unread = new WeakSet<object>();
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && !request.raw.complete && !request.raw.readableEnded) {
      reply.header('Connection', 'close');
      unread.add(request.raw);
      // Node would drop the socket as soon as the answer is written (destroySoon): end it instead.
      const socket = request.raw.socket as Partial<Socket> | undefined;
      if (socket && typeof socket.end === 'function') socket.destroySoon = () => socket.end!();
    }
    done(null, payload);
  });
  // Once the answer is out and its line logged.
  app.addHook('onResponse', (request, _reply, done) => {
    done();
    // An injected request (app.inject) has a stand-in socket with nothing to close.
    const socket = request.raw.socket as Partial<Socket> | undefined;
    if (!unread.has(request.raw) || typeof socket?.destroy !== 'function') return;
    const drop = () => socket.destroy!();
    const timer = setTimeout(drop, limits.linger);
    timer.unref();
    socket.once!('close', () => clearTimeout(timer));
    // Node reads the unread body to throw it away once the answer is out; its end closes the socket.
    if (request.raw.readableEnded) drop();
    else request.raw.once('end', drop).resume();
  });
}
