/**
 * Answers are compressed as the client accepts (brotli or gzip). @fastify/compress does it for every
 * answer; a kept answer (a page kept until the next write, routes/common.ts) is compressed once per
 * encoding and its bytes sent again to every later caller who accepts that encoding. A browser always
 * asks for compressed answers: a repeated 10 kB page compressed anew for each request cost the API
 * process 1.5-1.7 ms of CPU, and 0.35 ms sent as kept bytes.
 */
import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

export const COMPRESSION = {
  /** What a client may be answered in, the preferred first. */
  encodings: ['br', 'gzip'] as const,
  /** Answers smaller than this (bytes) go out as they are. */
  threshold: 1024,
  /**
   * Answers up to this size (bytes) are compressed in one call on the request's thread; larger ones
   * through a stream on libuv's pool. A stream costs more to set up and schedule than compressing
   * a page of a list does (@fastify/compress's own default on two cores is 8 kB, below one page).
   */
  syncThreshold: 64 * 1024,
  /**
   * Brotli's quality for answers (compressed on the request's path). A 10 kB page: quality 2 in
   * 66 µs to 713 bytes, @fastify/compress's default 4 in 144 µs to 648 bytes.
   */
  brotli: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: 2,
  },
};

type Encoding = (typeof COMPRESSION.encodings)[number];

/** A kept answer: its text and, once asked for, its compressed bytes in each encoding. */
export interface KeptText {
  text: string;
  encoded: Partial<Record<Encoding, Buffer>>;
}

// The settings @fastify/compress is registered with (app.ts; gzip: zlib's default).
const encode: Record<Encoding, (text: string) => Buffer> = {
  br: (text) => zlib.brotliCompressSync(text, { params: COMPRESSION.brotli }),
  gzip: (text) => zlib.gzipSync(text),
};

const negotiator = new Negotiator<Encoding>({ supportedValues: [...COMPRESSION.encodings] });
const keptOf = new WeakMap<FastifyReply, KeptText>();

/** Marks the text `reply` sends as a kept answer, whose compressed bytes are kept with it. */
export function sendingKept(reply: FastifyReply, kept: KeptText): void {
  keptOf.set(reply, kept);
}

/** The encoding a request accepts, read as @fastify/compress reads it ('*' and x-gzip are gzip). */
function acceptedEncoding(request: FastifyRequest): Encoding | null {
  const header = request.headers['accept-encoding'];
  if (!header || request.headers['x-no-compression'] !== undefined) return null;
  return negotiator.negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'));
}

/**
 * onSend: a kept answer goes out as the bytes kept for the encoding the client accepts (compressed
 * on the first request that asks for it). A hook rather than the route's own send, so that the
 * hooks before it (the tests' check of every answer against the API document) read the text; the
 * compression plugin, whose hook runs last, passes an answer that already has its Content-Encoding.
 */
export const keptEncoding: onSendHookHandler = (request, reply, payload, done) => {
  const kept = keptOf.get(reply);
  if (!kept || payload !== kept.text || kept.text.length < COMPRESSION.threshold || reply.hasHeader('content-encoding')) return done(null, payload);
  const encoding = acceptedEncoding(request);
  if (!encoding) return done(null, payload);
  const bytes = (kept.encoded[encoding] ??= encode[encoding](kept.text));
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('Vary', 'accept-encoding');
  else if (!/\baccept-encoding\b/i.test(String(vary))) reply.header('Vary', `${String(vary)}, accept-encoding`);
  reply.header('Content-Encoding', encoding);
  done(null, bytes);
};
