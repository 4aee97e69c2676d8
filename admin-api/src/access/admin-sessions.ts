// Console sessions: a random secret in an HttpOnly cookie, its sha256 in `admin_sessions`. The
// page's scripts never see a credential, and signing out deletes the row, so the cookie is refused
// from then on (a JWT in the browser could be stolen by a script and not ended before it expires).
import { createHash, randomBytes } from 'node:crypto';
import type { Loaded } from '@mikro-orm/core';
import type { Em } from '@intake/shared/db';
import { AdminSessionSchema, type AdminUser } from '@intake/shared/entities';
import { MEMBER_POPULATE } from './principal.js';

const SESSION_SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface StartedSession {
  secret: string;
  expiresAt: Date;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new session for the admin, valid for `ttlSeconds`; expired sessions of that admin are dropped. */
export async function startSession(em: Em, adminId: string, ttlSeconds: number): Promise<StartedSession> {
  const secret = randomBytes(32).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await em.nativeDelete(AdminSessionSchema, { admin: adminId, expiresAt: { $lte: now } });
  em.create(AdminSessionSchema, { admin: adminId, secretHash: hashSecret(secret), expiresAt });
  await em.flush();
  return { secret, expiresAt };
}

export interface FoundSession {
  id: string;
  /** The session's member, read in the same query (with what `activeMember` needs). */
  admin: Loaded<AdminUser, (typeof MEMBER_POPULATE)[number]>;
  /** When a sign-in or a confirmation started it (docs/sign-in.md#recent-sign-in). */
  startedAt: Date;
}

/** The live session the secret belongs to, with its member, or null. */
export async function findSession(em: Em, secret: string): Promise<FoundSession | null> {
  if (!SESSION_SECRET_SHAPE.test(secret)) {
    return null;
  }
  const session = await em.findOne(
    AdminSessionSchema,
    { secretHash: hashSecret(secret), expiresAt: { $gt: new Date() } },
    { populate: ['admin', ...MEMBER_POPULATE.map((field) => `admin.${field}` as const)] },
  );
  return session === null ? null : { id: session.id, admin: session.admin, startedAt: session.createdAt };
}

export async function endSession(em: Em, secret: string): Promise<void> {
  if (SESSION_SECRET_SHAPE.test(secret)) {
    await em.nativeDelete(AdminSessionSchema, { secretHash: hashSecret(secret) });
  }
}

/** Every session of the admin (a password change signs out everywhere). */
export async function endAllSessions(em: Em, adminId: string): Promise<void> {
  await em.nativeDelete(AdminSessionSchema, { admin: adminId });
}
