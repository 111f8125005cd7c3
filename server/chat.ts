/**
 * Live chat plumbing of the reference server: the visitor's key to their own chat, the admins'
 * event-stream tickets, and the feed that pushes "this chat changed" to open event streams.
 *
 * - A visitor has no account. Opening a chat sets an HttpOnly, SameSite=Strict cookie holding a
 *   random key (only its SHA-256 is stored); that key, not the address, lets the browser read
 *   (/chat/me), answer and follow (events) its own chat.
 * - EventSource cannot send an Authorization header, and the session token must never travel in a
 *   URL (addresses are logged). An admin trades the session for a ticket (POST with the bearer
 *   token) that opens one stream: random, single-use, valid for TICKET_TTL_MS, stored hashed with a
 *   prefix so it can never be used as a bearer token.
 * - The feed looks at the database for chats changed since its last look, every FEED_POLL_MS while
 *   someone listens: writes made by any API process on the same database are seen.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { VISITOR_COOKIE } from '../contract';
import { safeDecode } from './attachments';
import { unauthorized } from './errors';
import { callerOf, randomToken, sha256, type Caller } from './auth';
import { API_PREFIX } from './config';
import { now, outsideRequest, type DB, type Row } from './db';

/** A visitor's key lasts 30 days, renewed by nothing: a new chat gives a new key. */
const VISITOR_KEY_DAYS = 30;
export const TICKET_TTL_MS = 60_000;
export const FEED_POLL_MS = 250;
export const HEARTBEAT_MS = 15_000;
/** Open streams allowed per admin and per client address (per API process). */
export const STREAM_LIMITS = { perUser: 5, perAddress: 20 };

const ticketHash = (ticket: string) => sha256(`chat-events:${ticket}`);

/** The value of one cookie of the request, or undefined. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    // A value that is not valid percent-encoding ('%') is kept as it came: no key the server gave.
    if (eq > 0 && part.slice(0, eq).trim() === name) return safeDecode(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A new visitor key: its cookie is set on the answer, its hash returned to be stored with the chat. */
export function issueVisitorKey(request: FastifyRequest, reply: FastifyReply): string {
  const key = randomToken();
  const secure = request.protocol === 'https' ? '; Secure' : '';
  // The API's own path, whichever of its calls opened the chat (the contract's /chat or the REST face).
  reply.header('Set-Cookie', `${VISITOR_COOKIE}=${key}; Path=${API_PREFIX}; Max-Age=${VISITOR_KEY_DAYS * 86400}; HttpOnly; SameSite=Strict${secure}`);
  return sha256(key);
}

/** The id of the chat whose key the request's cookie holds, or undefined. */
export async function visitorChatId(db: DB, request: FastifyRequest): Promise<number | undefined> {
  const key = cookieOf(request, VISITOR_COOKIE);
  if (!key || key.length > 100) return undefined;
  const row = await db.selectFrom('chats').select('id').where('visitor_key_hash', '=', sha256(key)).orderBy('id', 'desc').executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

/**
 * A ticket for the caller of this session token, tied to that session: a row of the sessions table
 * with the session as its parent, which is what tells it from a session (auth.ts never takes it for one).
 */
export async function issueTicket(db: DB, userId: number, sessionToken: string | null): Promise<string> {
  const session = await db
    .selectFrom('sessions').select('id').where('token_hash', '=', sha256(sessionToken ?? '')).where('parent_id', 'is', null).executeTakeFirst();
  if (!session) throw unauthorized('Your session has expired; please sign in again');
  const ticket = randomToken();
  await db
    .insertInto('sessions')
    .values({
      token_hash: ticketHash(ticket), user_id: userId, parent_id: Number(session.id),
      expires_at: new Date(Date.now() + TICKET_TTL_MS).toISOString(), created_at: now(),
    })
    .execute();
  return ticket;
}

/** A live session's user: the session is there and unexpired, the user active. */
async function sessionUser(db: DB, sessionId: number): Promise<Row | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.expires_at', '>', now())
    .executeTakeFirst();
  return row && Number(row.is_active) ? row : undefined;
}

/**
 * The caller a ticket was issued to and the session it was bought with, the ticket spent;
 * undefined when unknown, spent or expired, or when that session has ended.
 */
export async function redeemTicket(db: DB, ticket: string): Promise<{ caller: Caller; sessionId: number } | undefined> {
  if (ticket.length > 100) return undefined;
  const spent = await db.deleteFrom('sessions').where('token_hash', '=', ticketHash(ticket)).returning(['parent_id', 'expires_at']).executeTakeFirst();
  if (!spent || String(spent.expires_at) < now() || spent.parent_id === null) return undefined;
  const sessionId = Number(spent.parent_id);
  const user = await sessionUser(db, sessionId);
  return user ? { caller: callerOf(user), sessionId } : undefined;
}

/** How many chats wait for the admins: incoming, or with visitor messages they have not seen. */
export async function unreadChats(db: DB): Promise<number> {
  const row = await db
    .selectFrom('chats')
    .select(sql<number>`count(*)`.as('n'))
    .where((eb) => eb.or([eb('admin_online', '=', 0), eb('admin_online', 'is', null), eb(sql`coalesce(visitor_messages, 0)`, '>', sql`coalesce(admin_seen, 0)`)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface Listener {
  /** Admins hear of every chat; a visitor of theirs only. */
  chatId?: number;
  userId?: number;
  /** An admin's stream lives as long as the session it was opened from, and the access. */
  sessionId?: number;
  address: string;
  res: ServerResponse;
}

/** Writes one server-sent event. */
export const sendEvent = (res: ServerResponse, event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * How far back each look reaches: a write is stamped before its transaction commits, and processes
 * on several machines stamp by their own clocks, so a change may appear a little after its stamp.
 * Changes already told are remembered for this long, and told once.
 */
export const FEED_LOOKBACK_MS = 5_000;

const earlier = (stamp: string, ms: number) => new Date(Date.parse(stamp) - ms).toISOString();

export class ChatFeed {
  private readonly listeners = new Set<Listener>();
  private timer?: NodeJS.Timeout;
  /** The newest stamp seen, and when the feed began to look (nothing older is told). */
  private since = now();
  private started = this.since;
  /** Changes already told ('id@updated_at'), with their stamps. */
  private told = new Map<string, string>();
  private lastBeat = Date.now();
  private running = false;

  constructor(
    private readonly db: DB,
    /** The access an admin's stream needs (the chats screen's). */
    private readonly access: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  count(match: (l: Listener) => boolean): number {
    let n = 0;
    for (const l of this.listeners) if (match(l)) n++;
    return n;
  }

  add(listener: Listener): () => void {
    if (this.listeners.size === 0) {
      this.since = now();
      this.started = this.since;
      this.told.clear();
    }
    this.listeners.add(listener);
    // The first listener's request starts the feed; the feed outlives it.
    this.timer ??= outsideRequest(() => setInterval(() => void this.tick(), FEED_POLL_MS));
    return () => this.drop(listener);
  }

  private drop(listener: Listener): void {
    this.listeners.delete(listener);
    if (this.listeners.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * Ends the admins' streams whose session has ended (signed out, expired, blacklisted) or whose
   * user lost the admin role or the access: they hear nothing more, and are told why.
   */
  private async endRevoked(): Promise<void> {
    const admins = [...this.listeners].filter((l) => l.sessionId !== undefined);
    if (!admins.length) return;
    const rows = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select('sessions.id as session_id')
      .where('sessions.id', 'in', [...new Set(admins.map((l) => l.sessionId!))])
      .where('sessions.expires_at', '>', now())
      .execute();
    const live = new Set(rows.filter((r) => Number(r.is_active) && callerOf(r).can(this.access)).map((r) => Number(r.session_id)));
    for (const l of admins) {
      if (live.has(l.sessionId!)) continue;
      sendEvent(l.res, 'end', { reason: 'Your session or your access to the chats has ended' });
      l.res.end();
      this.drop(l);
    }
  }

  close(): void {
    for (const l of this.listeners) l.res.end();
    this.listeners.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const back = earlier(this.since, FEED_LOOKBACK_MS);
      const from = back > this.started ? back : this.started;
      const rows = await this.db
        .selectFrom('chats')
        .select(['id', 'updated_at'])
        .where('updated_at', '>=', from)
        .orderBy('updated_at')
        .limit(1000)
        .execute();
      // Looked at after the changes were read: a change made after a revocation is never told.
      await this.endRevoked();
      const changed = rows.filter((r) => !this.told.has(`${r.id}@${r.updated_at}`));
      for (const r of changed) {
        this.told.set(`${r.id}@${r.updated_at}`, String(r.updated_at));
        if (String(r.updated_at) > this.since) this.since = String(r.updated_at);
      }
      for (const [key, stamp] of this.told) if (stamp < from) this.told.delete(key);
      if (changed.length) {
        const ids = [...new Set(changed.map((r) => Number(r.id)))];
        const admins = [...this.listeners].some((l) => l.chatId === undefined);
        const unread = admins ? await unreadChats(this.db) : 0;
        for (const l of this.listeners) {
          if (l.chatId === undefined) sendEvent(l.res, 'chat', { ids, unread });
          else if (ids.includes(l.chatId)) sendEvent(l.res, 'chat', { ids: [l.chatId] });
        }
      }
      if (Date.now() - this.lastBeat >= HEARTBEAT_MS) {
        this.lastBeat = Date.now();
        for (const l of this.listeners) l.res.write(': heartbeat\n\n');
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.running = false;
    }
  }
}
