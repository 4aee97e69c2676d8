// Kysely 0.29, under MikroORM, never releases a pooled connection whose BEGIN, COMMIT or ROLLBACK
// failed (kysely-org/kysely#1990). When the database goes away in the middle of a transaction the
// rollback fails too, so each such transaction costs the pool one client for good; after a few
// outages every query waits forever for a client that never comes back.
//
// The guard wraps the pool's `connect()`: a client whose connection ends while it is checked out is
// released with an error (pg-pool then discards it), and release becomes idempotent so that the
// holder's own release, if it ever comes, is harmless.
import { markConnectFailure } from '../outage/index.js';

/** The parts of a `pg` pool client the guard uses. */
export interface GuardedClient {
  release(error?: Error | boolean): void;
  once(event: 'end', listener: () => void): unknown;
  off(event: 'end', listener: () => void): unknown;
}

/** The part of a `pg` pool the guard wraps. */
export interface GuardedPool {
  connect(...args: unknown[]): Promise<GuardedClient> | void;
}

export function releaseEndedClients(pool: GuardedPool): void {
  const connect = pool.connect.bind(pool);
  pool.connect = (...args: unknown[]) => {
    // The callback form is not used by Kysely; it is passed through untouched.
    if (args.length > 0) {
      return connect(...args);
    }
    // A failure to get a connection at all is an outage whatever PostgreSQL said (see outage.ts).
    return (connect() as Promise<GuardedClient>).then(guard, (error: unknown) =>
      Promise.reject(markConnectFailure(error)),
    );
  };
}

function guard(client: GuardedClient): GuardedClient {
  const release = client.release.bind(client);
  let released = false;
  const onEnd = () => finish(new Error('connection ended while checked out'));
  const finish = (error?: Error | boolean) => {
    if (released) {
      return;
    }
    released = true;
    client.off('end', onEnd);
    release(error);
  };
  client.once('end', onEnd);
  client.release = finish;
  return client;
}
