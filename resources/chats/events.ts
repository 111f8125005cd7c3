/**
 * The reference server's chat event stream (an extension; a contract-only server answers 404 and the
 * screens keep their 10 s poll). Admins open it with a single-use ticket bought with their session
 * (EventSource cannot send the bearer token, and the token must not travel in a URL); a visitor's
 * browser opens it with the chat cookie the server set. One stream per browser tab, shared by every
 * component that listens; it reconnects with a fresh ticket after a failure, backing off to 30 s.
 */
import { CHAT_PATHS } from '../../contract';

export interface ChatEvent {
  ids?: number[];
  unread?: number;
}

type Listener = (event: ChatEvent) => void;

export interface StreamSource {
  /** The stream's address: with a fresh ticket for admins; undefined when the server has no stream (404). */
  url(): Promise<string | undefined>;
  withCredentials?: boolean;
}

const MAX_BACKOFF_MS = 30_000;

class SharedStream {
  private listeners = new Set<Listener>();
  private source?: EventSource;
  private retry?: ReturnType<typeof setTimeout>;
  private backoff = 1000;
  private stopped = true;

  constructor(private readonly from: StreamSource) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (this.stopped) {
      this.stopped = false;
      void this.open();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private stop() {
    this.stopped = true;
    this.source?.close();
    this.source = undefined;
    if (this.retry) clearTimeout(this.retry);
  }

  private async open() {
    let url: string | undefined;
    try {
      url = await this.from.url();
    } catch {
      url = '';
    }
    if (this.stopped) return;
    if (url === undefined) return; // no stream on this server: polling only
    if (!url) return this.later();
    const source = new EventSource(url, { withCredentials: this.from.withCredentials ?? false });
    this.source = source;
    const tell = (e: MessageEvent) => {
      this.backoff = 1000;
      let data: ChatEvent = {};
      try {
        data = JSON.parse(e.data as string) as ChatEvent;
      } catch {
        /* an unreadable event still means "something changed" */
      }
      for (const l of this.listeners) l(data);
    };
    source.addEventListener('ready', tell);
    source.addEventListener('chat', tell);
    source.onerror = () => {
      // A ticket is single-use: never let EventSource retry on its own with the spent one.
      source.close();
      if (this.source === source) this.source = undefined;
      this.later();
    };
  }

  private later() {
    if (this.stopped) return;
    const wait = this.backoff;
    this.backoff = Math.min(MAX_BACKOFF_MS, this.backoff * 2);
    this.retry = setTimeout(() => void this.open(), wait);
  }
}

const streams = new Map<string, SharedStream>();

/** Listens to the stream named `key` (one per tab), opening it from `from` on the first listener. */
export function listenToChats(key: string, from: StreamSource, listener: Listener): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  let stream = streams.get(key);
  if (!stream) {
    stream = new SharedStream(from);
    streams.set(key, stream);
  }
  return stream.subscribe(listener);
}

/** The admins' stream: a ticket first (undefined when the server answers 404: no stream there). */
export function adminSource(apiUrl: string, buyTicket: () => Promise<string>): StreamSource {
  return {
    async url() {
      try {
        return `${apiUrl}${CHAT_PATHS.events}?ticket=${encodeURIComponent(await buyTicket())}`;
      } catch (error) {
        if ((error as { status?: number }).status === 404) return undefined;
        throw error;
      }
    },
  };
}

/** A visitor's stream: their chat cookie goes along. */
export const visitorSource = (apiUrl: string): StreamSource => ({ url: async () => `${apiUrl}${CHAT_PATHS.events}`, withCredentials: true });
