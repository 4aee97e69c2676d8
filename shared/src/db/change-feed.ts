// Site and form changes as they commit, told by the database itself. A trigger (migration
// Migration20261121133000_site_change_notify) runs `pg_notify('intake_site_changes', <site id>)` for
// every update or delete of a site or of one of its forms; PostgreSQL delivers a notification only
// when its transaction commits, whatever code (or person at a psql prompt) made the change.
// PostgreSQL: one dedicated connection (not taken from the pool) LISTENs; while it is down the feed
// is blind: the listener hears `onBlind` at once, and `onLive` only after LISTEN is back. PGlite: the
// database lives in this process; its notifications arrive during the COMMIT that raised them,
// before the committing caller goes on (docs/performance.md, "What the profile showed", item 1).
import type { PgliteConnection } from '@mikro-orm/pglite';
import { isPgliteConnection } from './pglite-connection.js';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Logger } from '../logger/index.js';
import type { Database } from './orm.js';

export const SITE_CHANGES_CHANNEL = 'intake_site_changes';
/** The listener's `application_name`, so an operator can tell it apart in pg_stat_activity. */
export const SITE_CHANGES_APPLICATION_NAME = 'intake-site-changes';

export interface SiteChangeListener {
  /** The site of this id, or one of its forms, changed or was deleted. */
  onChange(siteId: string): void;
  /** Notifications flow: from now on every change will be heard. */
  onLive(): void;
  /** Changes may go unheard from now on (connection lost): nothing remembered can be trusted. */
  onBlind(): void;
}

export interface SiteChangeFeed {
  /**
   * Settles once the first attempt to listen has (listening or failed), or after
   * FIRST_ATTEMPT_WAIT_MS: a caller that closes the database right after starting waits for it,
   * since an attempt still reading the ORM's pool then would keep the close from ending.
   */
  readonly firstAttempt: Promise<void>;
  close(): Promise<void>;
}

const FIRST_ATTEMPT_WAIT_MS = 5000;

function bounded(attempt: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FIRST_ATTEMPT_WAIT_MS);
    timer.unref();
    void attempt.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export interface SiteChangeFeedOptions {
  logger: Logger;
  /** Wait before reconnecting a lost PostgreSQL listener. */
  retryMs?: number;
  /** How often the listening connection is checked; a check that fails or hangs makes the feed blind. */
  heartbeatMs?: number;
}

/** The parts of `pg` used here, typed locally: the client class comes from the ORM's own pool. */
interface PgClient {
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): void;
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

interface PgPool {
  Client: new (options: object) => PgClient;
  options: object;
}

/** One NOTIFY channel and how its listening connection and its log lines name it. */
export interface NotifyChannel {
  name: string;
  /** The listening connection's `application_name` (PostgreSQL). */
  applicationName: string;
  /** How log lines name the feed: `site change feed`. */
  label: string;
}

export const SITE_CHANGES: NotifyChannel = {
  name: SITE_CHANGES_CHANNEL,
  applicationName: SITE_CHANGES_APPLICATION_NAME,
  label: 'site change feed',
};

/** What a feed tells: each notification's payload, and whether they flow. */
export interface ChannelListener {
  onNotification(payload: string): void;
  onLive(): void;
  onBlind(): void;
}

/** Starts listening; the listener hears `onLive` once changes are being received. */
export function watchSiteChanges(
  db: Database,
  listener: SiteChangeListener,
  options: SiteChangeFeedOptions,
): SiteChangeFeed {
  return watchChannel(
    db,
    SITE_CHANGES,
    {
      onNotification: (siteId) => listener.onChange(siteId),
      onLive: () => listener.onLive(),
      onBlind: () => listener.onBlind(),
    },
    options,
  );
}

/** Listens on one channel, as described at the top of this file for the site changes. */
export function watchChannel(
  db: Database,
  channel: NotifyChannel,
  listener: ChannelListener,
  options: SiteChangeFeedOptions,
): SiteChangeFeed {
  const connection = db.em.getConnection();
  if (connection instanceof PostgreSqlConnection) {
    return watchPostgres(connection, channel, listener, options);
  }
  if (isPgliteConnection(connection)) {
    return watchPglite(connection, channel, listener, options);
  }
  throw new Error('watchChannel: unsupported database driver');
}

function isPayload(payload: string | undefined): payload is string {
  return typeof payload === 'string' && payload !== '';
}

function watchPostgres(
  connection: PostgreSqlConnection,
  channel: NotifyChannel,
  listener: ChannelListener,
  options: SiteChangeFeedOptions,
): SiteChangeFeed {
  const retryMs = options.retryMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 5000;
  let closed = false;
  let client: PgClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const lose = (current: PgClient, reason: string) => {
    if (client !== current) {
      return;
    }
    client = undefined;
    clearInterval(heartbeat);
    listener.onBlind();
    void current.end().catch(() => undefined);
    if (!closed) {
      options.logger.warn({ reason, feed: channel.label }, `${channel.label} lost; waiting for it to be back`);
      retry = setTimeout(() => void connect(), retryMs);
    }
  };

  const check = (current: PgClient) => {
    let answered = false;
    const deadline = setTimeout(() => {
      if (!answered) {
        lose(current, 'heartbeat timed out');
      }
    }, heartbeatMs);
    current.query('select 1').then(
      () => {
        answered = true;
        clearTimeout(deadline);
      },
      () => {
        answered = true;
        clearTimeout(deadline);
        lose(current, 'heartbeat failed');
      },
    );
  };

  async function connect(): Promise<void> {
    if (closed) {
      return;
    }
    let current: PgClient | undefined;
    try {
      const pool = (await connection.getNativeClient()) as unknown as PgPool;
      // The pool's own client class and settings: the same server, credentials and TLS.
      current = new pool.Client({ ...pool.options, application_name: channel.applicationName });
      const candidate = current;
      candidate.on('notification', (message) => {
        if (client === candidate && message.channel === channel.name && isPayload(message.payload)) {
          listener.onNotification(message.payload);
        }
      });
      candidate.on('error', () => lose(candidate, 'connection error'));
      candidate.on('end', () => lose(candidate, 'connection ended'));
      await candidate.connect();
      await candidate.query(`LISTEN ${channel.name}`);
      if (closed) {
        await candidate.end();
        return;
      }
      client = candidate;
      heartbeat = setInterval(() => check(candidate), heartbeatMs);
      listener.onLive();
    } catch (error) {
      void current?.end().catch(() => undefined);
      if (!closed) {
        options.logger.warn({ err: error }, `${channel.label} could not listen; retrying`);
        retry = setTimeout(() => void connect(), retryMs);
      }
    }
  }

  const firstAttempt = bounded(connect());
  return {
    firstAttempt,
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const current = client;
      client = undefined;
      listener.onBlind();
      await current?.end().catch(() => undefined);
    },
  };
}

function watchPglite(
  connection: PgliteConnection,
  channel: NotifyChannel,
  listener: ChannelListener,
  options: SiteChangeFeedOptions,
): SiteChangeFeed {
  let closed = false;
  let unlisten: (() => Promise<void>) | undefined;
  const onNotification = (payload: string) => {
    if (!closed && isPayload(payload)) {
      listener.onNotification(payload);
    }
  };
  const started = (async () => {
    try {
      const pglite = await connection.getNativeClient();
      unlisten = await pglite.listen(channel.name, onNotification);
      if (!closed) {
        listener.onLive();
      }
    } catch (error) {
      // Without the site change feed nothing is cached: correct, only slower.
      options.logger.warn({ err: error }, `${channel.label} could not listen on the embedded database`);
    }
  })();
  return {
    firstAttempt: bounded(started),
    async close() {
      closed = true;
      listener.onBlind();
      await started;
      await unlisten?.().catch(() => undefined);
    },
  };
}
