/**
 * A real SMTP server for the tests (the smtp-server package) on a loopback port: it keeps every
 * message it accepts, and can be stopped and started again on the same port (an outage). With
 * `hold`, a message it says yes to waits for `answer` (a mail whose sending is under way).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  /** The outbox row the message came from (its Message-ID names it). */
  outboxId: number;
  to: string[];
  /** The raw message, quoted-printable soft breaks and escapes decoded. */
  text: string;
}

export interface TestSmtp {
  url: string;
  received: Received[];
  /** Received messages of one outbox row. */
  of(outboxId: number): Received[];
  /** Resolves once the messages received satisfy `done` (checked as each one arrives). */
  until(done: (received: Received[]) => boolean): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Says yes to a message of this outbox row that was held. */
  answer(outboxId: number): void;
}

const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export async function startSmtp(opts: { hold?: (outboxId: number) => boolean } = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const held = new Map<number, () => void>();
  const waiting = new Set<{ done: (r: Received[]) => boolean; resolve: () => void }>();
  const check = () => {
    for (const w of waiting) {
      if (!w.done(received)) continue;
      waiting.delete(w);
      w.resolve();
    }
  };
  let server: SMTPServer | undefined;
  let port = 0;
  const start = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const id = /^Message-ID: <outbox-(\d+)-/im.exec(raw);
          const outboxId = id ? Number(id[1]) : 0;
          received.push({ outboxId, to: session.envelope.rcptTo.map((r) => r.address), text: decoded(raw) });
          if (opts.hold?.(outboxId)) held.set(outboxId, () => done());
          else done();
          check();
        });
      },
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', () => resolve()));
    port = (server.server.address() as AddressInfo).port;
  };
  await start();
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    of: (outboxId) => received.filter((r) => r.outboxId === outboxId),
    until: (done) =>
      new Promise<void>((resolve) => {
        waiting.add({ done, resolve });
        check();
      }),
    start,
    answer: (outboxId) => {
      held.get(outboxId)?.();
      held.delete(outboxId);
    },
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
