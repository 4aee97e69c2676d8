// Login (a bearer token for API clients and an HttpOnly session cookie for the console), logout,
// the current principal, and password change.
import { AdminUserSchema, dummyPasswordHash, hashPassword, passwordNeedsRehash, verifyPassword } from '@intake/shared';
import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import {
  LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS,
  LOGIN_MAX_PER_ADDRESS,
  normalizeEmail,
  PASSWORD_CHANGE_MAX_ATTEMPTS,
} from '../auth/login-policy.js';
import { endAllSessions, endSession, startSession } from '../auth/admin-sessions.js';
import { Role } from '../auth/principal.js';
import type { AdminContext } from '../context.js';
import { presentAdminUser, presentAuthPayload } from '../presenters/auth.js';
import { badUserInput, forbidden, rateLimited, unauthenticated } from '../schema/errors.js';
import { AdminUserType, AuthPayloadType } from '../types/auth.type.js';
import { PASSWORD_MAX_LENGTH, parseNewPassword } from '../validation/fields.js';

const INVALID_LOGIN = 'Invalid e-mail or password';
const EMAIL_MAX_LENGTH = 320;

@Resolver()
export class AuthResolver {
  @Mutation(() => AuthPayloadType, {
    description:
      'Needs no token. Also sets the HttpOnly session cookie `intake_session` that the console uses instead of the token.',
  })
  async login(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Ctx() { em, deps, clientAddress, logger, requestId, session }: AdminContext,
  ): Promise<AuthPayloadType> {
    const normalizedEmail = normalizeEmail(email).slice(0, EMAIL_MAX_LENGTH + 1);
    const accountKey = `login:${normalizedEmail}|${clientAddress}`;
    const addressKey = `login-address:${clientAddress}`;
    const decision = deps.loginAttempts.consume([
      { key: accountKey, max: LOGIN_MAX_PER_ACCOUNT_AND_ADDRESS },
      { key: addressKey, max: LOGIN_MAX_PER_ADDRESS },
    ]);
    if (!decision.allowed) {
      logger.warn({ requestId, clientAddress }, 'login refused: too many attempts');
      throw rateLimited(decision.retryAfterSeconds);
    }

    const admin =
      normalizedEmail.length <= EMAIL_MAX_LENGTH ? await em.findOne(AdminUserSchema, { email: normalizedEmail }) : null;
    const acceptable = password.length <= PASSWORD_MAX_LENGTH;
    // An unknown e-mail still costs one scrypt verification, so timing does not tell which
    // addresses exist.
    const matches = await verifyPassword(
      acceptable ? password : '',
      admin?.passwordHash ?? (await dummyPasswordHash()),
    );
    if (admin === null || !acceptable || !matches) {
      logger.info({ requestId, clientAddress }, 'login failed');
      throw unauthenticated(INVALID_LOGIN);
    }
    deps.loginAttempts.reset(accountKey);
    deps.loginAttempts.release(addressKey);
    if (passwordNeedsRehash(admin.passwordHash)) {
      // A hash made with older (weaker) parameters: the password is at hand only now. Its tokens
      // stay valid: the password itself did not change, so passwordChangedAt does not either.
      admin.passwordHash = await hashPassword(password);
      await em.flush();
      logger.info({ requestId }, 'password re-hashed with the current parameters');
    }
    const issued = deps.adminTokens.issue(admin.id, admin.passwordChangedAt);
    const started = await startSession(em, admin.id, deps.services.config.adminTokenTtlSeconds);
    session.set(started.secret, started.expiresAt);
    return presentAuthPayload(issued);
  }

  @Mutation(() => Boolean, {
    description:
      'Needs no token. Ends the console session of this request server-side and clears its cookie (bearer tokens end when they expire or the password changes).',
  })
  async logout(@Ctx() { em, session }: AdminContext): Promise<boolean> {
    const secret = session.read();
    if (secret !== undefined) {
      await endSession(em, secret);
    }
    session.clear();
    return true;
  }

  @Authorized()
  @Query(() => AdminUserType, {
    description: 'The administrator behind the token (for an API token: the one who created it).',
  })
  async me(@Ctx() { em, principal }: AdminContext): Promise<AdminUserType> {
    const adminId = principal?.adminId ?? null;
    const admin = adminId === null ? null : await em.findOne(AdminUserSchema, { id: adminId });
    if (admin === null) {
      throw forbidden('No administrator is behind this token');
    }
    return presentAdminUser(admin);
  }

  @Authorized(Role.SESSION)
  @Mutation(() => AuthPayloadType, {
    description:
      'Every admin token and console session issued before stops working; the answer is a new token (and a new session cookie).',
  })
  async changePassword(
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() { em, deps, principal, session }: AdminContext,
  ): Promise<AuthPayloadType> {
    const password = parseNewPassword(newPassword, 'newPassword');
    if (principal?.kind !== 'admin') {
      throw unauthenticated();
    }
    const key = `change-password:${principal.adminId}`;
    const decision = deps.loginAttempts.consume([{ key, max: PASSWORD_CHANGE_MAX_ATTEMPTS }]);
    if (!decision.allowed) {
      throw rateLimited(decision.retryAfterSeconds);
    }
    const admin = await em.findOne(AdminUserSchema, { id: principal.adminId });
    if (admin === null) {
      throw unauthenticated();
    }
    const matches =
      currentPassword.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(currentPassword, admin.passwordHash));
    if (!matches) {
      throw badUserInput('currentPassword', 'is not correct');
    }
    deps.loginAttempts.reset(key);
    admin.passwordHash = await hashPassword(password);
    // Strictly later than before, even within one millisecond: it is the version tokens carry.
    admin.passwordChangedAt = new Date(Math.max(Date.now(), admin.passwordChangedAt.getTime() + 1));
    await em.flush();
    await endAllSessions(em, admin.id);
    const started = await startSession(em, admin.id, deps.services.config.adminTokenTtlSeconds);
    session.set(started.secret, started.expiresAt);
    return presentAuthPayload(deps.adminTokens.issue(admin.id, admin.passwordChangedAt));
  }
}
