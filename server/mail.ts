/**
 * Mails, through a durable outbox (DESIGN §7). An event writes its mail with `queueMail`, in the
 * event's own transaction, rendered from the event's template (resources/templates/events.ts); an
 * inactive template sends nothing. A worker in every API process delivers the outbox over SMTP
 * (nodemailer, SMTP_URL): it claims a few due mails at a time with a lease (on PostgreSQL the claim
 * also skips rows another worker is claiming, FOR UPDATE SKIP LOCKED), so of several processes
 * exactly one sends each mail; a refused or failed send waits and is tried again, each wait twice
 * the one before, and after the last attempt the mail is marked failed, for admins to see and retry.
 * Without SMTP_URL nothing is sent: mails stay in the outbox (demo mode prints them).
 */
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { ExpressionBuilder } from 'kysely';
import { MAIL_EVENTS, type MailSerial, type MailValues } from '../resources/templates/events';
import { renderMail, templateProblem, type RenderedMail } from '../resources/templates/render';
import { dialectOf, now, type DB, type Row } from './db';

export const WAITING = 'waiting';
export const SENT = 'sent';
export const FAILED = 'failed';

/** The worker's settings: MAIL_MAX_ATTEMPTS, MAIL_RETRY_SECONDS (the first wait, doubled each time), MAIL_POLL_SECONDS. */
export interface MailSettings {
  maxAttempts: number;
  retrySeconds: number;
  pollSeconds: number;
}
export const MAIL_DEFAULTS: MailSettings = { maxAttempts: 8, retrySeconds: 60, pollSeconds: 5 };

/** How long a worker holds a mail it is sending: longer than any send may take (the transport's timeouts). */
export const LEASE_MS = 5 * 60_000;
const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/** A mail ready for the outbox. */
export interface OutgoingMail {
  to: string;
  from: string;
  /** The template's serial (its event), or null. */
  serial: string | null;
  rendered: RenderedMail;
  /** Deleted once delivered (personal data that outlives its need). */
  private?: boolean;
  /** A reset link's hash and expiry: the mail goes with the link. */
  linkHash?: string;
  expiresAt?: string;
}

/** Writes one rendered mail to the outbox, waiting to be sent; answers its id. */
export async function enqueue(db: DB, mail: OutgoingMail): Promise<number> {
  const stamp = now();
  const row = await db
    .insertInto('mail_outbox')
    .values({
      to_email: mail.to, from_email: mail.from, subject: mail.rendered.subject.slice(0, 255), body: mail.rendered.text, html: mail.rendered.html,
      serial: mail.serial, private: mail.private ? 1 : 0, link_hash: mail.linkHash ?? null, expires_at: mail.expiresAt ?? null,
      state: WAITING, attempts: 0, next_attempt_at: stamp, created_at: stamp, updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Writes the mail of an event to `to` in the outbox, on `db`: the caller's transaction, so the mail
 * exists exactly when the event does. The event's template as the admins keep it; the seeded text
 * when it is missing, broken, or lacks what the event requires (a reset mail without its link).
 * Answers the mail's id, or null when the template is inactive or there is nobody to write to.
 */
export async function queueMail<S extends MailSerial>(
  db: DB, serial: S, to: string | null | undefined, values: MailValues<S>, link?: { hash: string; expiresAt: string },
): Promise<number | null> {
  // Nobody to write to, or an address that can never be delivered (.invalid, RFC 2606: an erased account's).
  if (!to || /\.invalid$/i.test(to)) return null;
  const event = MAIL_EVENTS[serial];
  const kept = await db.selectFrom('templates').select(['from_email', 'subject', 'message', 'is_active']).where('serial', '=', serial).orderBy('id').executeTakeFirst();
  if (kept && Number(kept.is_active) !== 1) return null;
  const stored = kept && { from_email: String(kept.from_email ?? ''), subject: String(kept.subject ?? ''), message: String(kept.message ?? '') };
  let template: { from_email: string; subject: string; message: string } = event.template;
  let rendered: RenderedMail | undefined;
  if (stored && stored.from_email && !templateProblem(stored, event)) {
    try {
      rendered = renderMail(stored, values);
      template = stored;
    } catch {
      // A value the template cannot take (a render limit): the seeded text is sent instead.
    }
  }
  rendered ??= renderMail(event.template, values);
  return enqueue(db, {
    to, from: template.from_email, serial, rendered,
    private: 'forget' in event && event.forget, linkHash: link?.hash, expiresAt: link?.expiresAt,
  });
}

/** An SMTP transport for SMTP_URL (e.g. smtps://user:pass@mail.example.com), with bounded waits. */
export const smtpTransport = (url: string): Transporter => nodemailer.createTransport({ url, ...TIMEOUTS } as Parameters<typeof nodemailer.createTransport>[0]);

const iso = (ms: number) => new Date(ms).toISOString();
const domainOf = (address: string) => /@([^>\s]+)>?\s*$/.exec(address)?.[1] ?? 'localhost';
/** Rows waiting to be sent (rows written before the outbox had states are waiting too). */
const isWaiting = (eb: ExpressionBuilder<Record<string, Row>, 'mail_outbox'>) => eb.or([eb('state', '=', WAITING), eb('state', 'is', null)]);

export interface TickResult {
  sent: number;
  retrying: number;
  failed: number;
}

/** Delivers the outbox: `tick` sends what is due once; `start` ticks every MAIL_POLL_SECONDS. */
export class MailWorker {
  /** Which worker holds a mail it is sending. */
  readonly id = randomUUID();
  private readonly settings: MailSettings;
  private readonly clock: () => number;
  private running: Promise<TickResult> | undefined;
  private stopped = false;
  /** The mail being sent now. */
  private sending: number | undefined;

  constructor(
    private readonly options: {
      db: DB;
      transport: Transporter;
      /** MAIL_FROM: the envelope sender (where bounces go); a mail's From is its template's. */
      envelopeFrom: string;
      settings?: Partial<MailSettings>;
      clock?: () => number;
      /** Mails claimed at a time. */
      batch?: number;
      onError?: (error: unknown) => void;
      /** True once the process is stopping: no further mail is claimed or begun (see `start`). */
      stopping?: () => boolean;
    },
  ) {
    this.settings = { ...MAIL_DEFAULTS, ...options.settings };
    this.clock = options.clock ?? Date.now;
  }

  /** Claims the due mails no other worker holds, for LEASE_MS. */
  private async claim(): Promise<Row[]> {
    const { db, batch = 20 } = this.options;
    const at = iso(this.clock());
    let due = db
      .selectFrom('mail_outbox')
      .select('id')
      .where(isWaiting)
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .orderBy('id')
      .limit(batch);
    if (dialectOf(db) === 'postgres') due = due.forUpdate().skipLocked();
    // The conditions again on the row itself: a row claimed meanwhile is not taken twice.
    return db
      .updateTable('mail_outbox')
      .set({ lease_until: iso(this.clock() + LEASE_MS), leased_by: this.id })
      .where('id', 'in', due)
      .where(isWaiting)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .returningAll()
      .execute();
  }

  private async deliver(mail: Row): Promise<'sent' | 'retrying' | 'failed'> {
    const { db, transport, envelopeFrom } = this.options;
    const id = Number(mail.id);
    try {
      const from = String(mail.from_email || envelopeFrom);
      await transport.sendMail({
        from, to: String(mail.to_email), subject: String(mail.subject ?? ''), text: String(mail.body ?? ''),
        ...(mail.html ? { html: String(mail.html) } : {}),
        envelope: { from: envelopeFrom.replace(/^.*<([^>]+)>.*$/, '$1'), to: String(mail.to_email) },
        messageId: `<outbox-${String(mail.id)}-${String(mail.created_at).replace(/\D/g, '')}@${domainOf(from)}>`,
      });
    } catch (error) {
      const attempts = Number(mail.attempts ?? 0) + 1;
      const last = attempts >= this.settings.maxAttempts;
      const wait = this.settings.retrySeconds * 1000 * 2 ** (attempts - 1);
      await db
        .updateTable('mail_outbox')
        .set({
          attempts, state: last ? FAILED : WAITING, last_error: String(error instanceof Error ? error.message : error).slice(0, 1000),
          next_attempt_at: last ? null : iso(this.clock() + wait), lease_until: null, leased_by: null, updated_at: now(),
        })
        .where('id', '=', id)
        .where('leased_by', '=', this.id)
        .execute();
      return last ? 'failed' : 'retrying';
    }
    // Once the SMTP server has it, a private mail (a reset link) need not be kept.
    if (Number(mail.private) === 1 || mail.link_hash) {
      await db.deleteFrom('mail_outbox').where('id', '=', id).where('leased_by', '=', this.id).execute();
    } else {
      await db
        .updateTable('mail_outbox')
        .set({ state: SENT, attempts: Number(mail.attempts ?? 0) + 1, sent_at: iso(this.clock()), last_error: null, lease_until: null, leased_by: null, updated_at: now() })
        .where('id', '=', id)
        .where('leased_by', '=', this.id)
        .execute();
    }
    return 'sent';
  }

  private isStopping(): boolean {
    return this.stopped || (this.options.stopping?.() ?? false);
  }

  /** Mails this worker holds and will not send after all (all but `keep`): another worker may take them at once. */
  private async release(keep?: number): Promise<void> {
    let held = this.options.db.updateTable('mail_outbox').set({ lease_until: null, leased_by: null }).where('leased_by', '=', this.id);
    if (keep !== undefined) held = held.where('id', '!=', keep);
    await held.execute();
  }

  /**
   * Sends every due mail once (one tick at a time per worker); answers what became of them. Once
   * stopping, the mail being sent is finished and the rest of the claimed ones are released.
   */
  tick(): Promise<TickResult> {
    this.running ??= (async () => {
      const result: TickResult = { sent: 0, retrying: 0, failed: 0 };
      try {
        const next = async () => (this.isStopping() ? [] : this.claim());
        for (let claimed = await next(); claimed.length; claimed = await next()) {
          for (const mail of claimed) {
            if (this.isStopping()) {
              await this.release();
              break;
            }
            this.sending = Number(mail.id);
            try {
              result[await this.deliver(mail)]++;
            } finally {
              this.sending = undefined;
            }
          }
        }
      } finally {
        this.running = undefined;
      }
      return result;
    })();
    return this.running;
  }

  /**
   * Ticks now and every MAIL_POLL_SECONDS without keeping the process alive; returns a stop
   * function: no mail is claimed after it, the one being sent is finished (the SMTP server's answer
   * recorded, so it is neither cut nor sent again) if that takes at most `waitMs`, the others claimed
   * are released for another worker, and it resolves once that is done. A send that outlasts the wait
   * keeps its lease, as after a crash.
   */
  start(): (waitMs?: number) => Promise<void> {
    const run = () => void this.tick().catch((error) => this.options.onError?.(error));
    run();
    const timer = setInterval(run, this.settings.pollSeconds * 1000);
    timer.unref();
    return async (waitMs = Infinity) => {
      this.stopped = true;
      clearInterval(timer);
      let wait: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (wait = Number.isFinite(waitMs) ? setTimeout(resolve, waitMs) : undefined));
      await Promise.race([this.running?.catch(() => undefined), waited]);
      clearTimeout(wait);
      await this.release(this.sending).catch((error: unknown) => this.options.onError?.(error));
      this.options.transport.close();
    };
  }
}

/** Demo mode without SMTP: prints each mail written to the outbox from now on (printing is not delivery). */
export function printNewMails(db: DB, everyMs: number, print: (text: string) => void, onError: (error: unknown) => void): () => void {
  let after: number | undefined;
  const run = async () => {
    if (after === undefined) {
      const top = await db.selectFrom('mail_outbox').select((eb) => eb.fn.max<number>('id').as('id')).executeTakeFirst();
      after = Number(top?.id ?? 0);
      return;
    }
    const rows = await db.selectFrom('mail_outbox').select(['id', 'to_email', 'subject', 'body']).where('id', '>', after).orderBy('id').limit(100).execute();
    for (const row of rows) {
      print(`Mail to ${String(row.to_email)}: ${String(row.subject)}\n${String(row.body)}`);
      after = Number(row.id);
    }
  };
  const tick = () => void run().catch(onError);
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
