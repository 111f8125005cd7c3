/**
 * Requests Node refuses before any route sees them (headers over its size limit, a request line or
 * header it cannot parse, a request that did not arrive in time) are answered in the envelope, as
 * every other refusal is, with the status Node itself would give. Fastify's default answers its own
 * shape (`{"error":"Request Header Fields Too Large",…}`), which no client of the contract reads.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { envelope } from '../contract';
import { withServerWords } from './words';

/** The status and readable query of a connection's error, as Node's own answer would choose the status. */
export function clientErrorAnswer(code: string | undefined, maxHeaderSize = http.maxHeaderSize): { status: number; query: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, query: `The request headers are too large (at most ${Math.floor(maxHeaderSize / 1024)} kB)` };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, query: 'The request body is too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, query: 'The request did not arrive in time' };
    default:
      return { status: 400, query: 'The request is not valid' };
  }
}

/**
 * Fastify's `clientErrorHandler`: writes the answer on the socket (no request exists to reply to)
 * and closes it. `strict`: no `i18n` extension, as in every other answer of strict mode. The socket
 * is ended, not dropped: what the client still sends (the rest of its headers) is read and thrown
 * away for at most `linger` ms, since dropping a socket with unread bytes resets it and the client
 * can lose the answer (as server/connections.ts does for refused uploads).
 */
export function answerClientError(strict: boolean, linger: number) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nothing to answer; Node and Fastify do the same.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // An answer already under way on this connection (a pipelined request's) must not be broken into.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy(error);
      return;
    }
    const { status, query } = clientErrorAnswer(error.code);
    const body = JSON.stringify(strict ? envelope({ query }) : withServerWords(envelope({ query })));
    const timer = setTimeout(() => socket.destroy(), linger);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.on('data', () => undefined);
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
