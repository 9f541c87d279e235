import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The LISTEN channel of `topic`: the base channel's start and a digest of both (a topic is any text, a channel an
 * identifier of at most 63 bytes). 120 bits: two topics sharing a channel would only send extra events.
 */
export const topicChannel = (base: string, topic: string): string =>
  `${base.slice(0, 30)}_t${createHash('sha256').update(`${base}\0${topic}`).digest('hex').slice(0, 30)}`;

/**
 * What the bus's connection LISTENs on: the base channel always, and each followed topic's channel while one of its
 * (counted) follows lasts. Changes are made by the bus's sender, in order with its NOTIFYs, on its one connection.
 */
export class ChannelListens {
  private readonly counts = new Map<string, number>();
  /** The channels the connection LISTENs on now. */
  private listening = new Set<string>();
  /**
   * The live follows that take `onActive` (`TaskEventBus.follow`): told once their channel is LISTENed on, and again
   * on each new connection once it LISTENs again.
   */
  private readonly waiting = new Set<ActiveWaiter>();
  private syncing = false;

  constructor(private readonly base: string) {}

  /**
   * Counts one follow of `channel`; `onActive` is called once a LISTEN on it is in effect (at once when one is and
   * no change is under way, if `connected`). Returns what ends that follow.
   */
  add(channel: string, onActive: (() => void) | undefined, connected: boolean): () => void {
    this.counts.set(channel, (this.counts.get(channel) ?? 0) + 1);
    const waiter = onActive && { channel, onActive, due: true, ended: false };
    if (waiter) this.waiting.add(waiter);
    if (connected && !this.syncing && this.listening.has(channel)) this.activate();
    return () => {
      if (waiter) {
        this.waiting.delete(waiter);
        waiter.ended = true;
      }
      const n = (this.counts.get(channel) ?? 0) - 1;
      if (n > 0) this.counts.set(channel, n);
      else this.counts.delete(channel);
    };
  }

  /** How many topic channels are followed now. */
  get followed(): number {
    return this.counts.size;
  }

  /** Whether the connection's LISTENs differ from what is followed. */
  get pending(): boolean {
    const { listen, unlisten } = this.changes();
    return listen.length + unlisten.length > 0;
  }

  /**
   * A new connection: LISTENs on everything followed (again, after a reconnect), then tells every live follow —
   * what was published while the old one was down was not relayed here.
   */
  async start(client: pg.Client): Promise<void> {
    this.listening = new Set();
    for (const w of this.waiting) w.due = true;
    await this.sync(client);
  }

  /** LISTENs on what is followed and not listened to yet, UNLISTENs what no longer is. */
  async sync(client: pg.Client): Promise<void> {
    const { listen, unlisten } = this.changes();
    const all = [...listen.map((c) => `LISTEN ${c}`), ...unlisten.map((c) => `UNLISTEN ${c}`)];
    this.syncing = true;
    try {
      // A few hundred statements per query.
      for (let i = 0; i < all.length; i += 500) await client.query(all.slice(i, i + 500).join('; '));
    } finally {
      this.syncing = false;
    }
    for (const c of listen) this.listening.add(c);
    for (const c of unlisten) this.listening.delete(c);
    this.activate();
  }

  /** Tells the due follows whose channel is LISTENed on now (on a later turn: never inside `add` or `sync`). */
  private activate(): void {
    const due = [...this.waiting].filter((w) => w.due && this.listening.has(w.channel));
    if (!due.length) return;
    for (const w of due) w.due = false;
    setImmediate(() => {
      for (const w of due) if (!w.ended) w.onActive();
    });
  }

  private changes(): { listen: string[]; unlisten: string[] } {
    const wanted = new Set([this.base, ...this.counts.keys()]);
    return {
      listen: [...wanted].filter((c) => !this.listening.has(c)),
      unlisten: [...this.listening].filter((c) => !wanted.has(c)),
    };
  }
}

interface ActiveWaiter {
  channel: string;
  onActive: () => void;
  /** Waiting to be told (a new follow, or a new connection). */
  due: boolean;
  /** Its follow ended: it is not told. */
  ended: boolean;
}
