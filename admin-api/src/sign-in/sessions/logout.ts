import type { Em } from '@intake/shared/db';
import { endSession } from '../../access/admin-sessions.js';

/** Ends a console session server-side, when the request carried one. */
export async function logout(em: Em, sessionSecret: string | undefined): Promise<void> {
  if (sessionSecret !== undefined) {
    await endSession(em, sessionSecret);
  }
}
