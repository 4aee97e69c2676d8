// Who may do what: the one table of the admin API's permissions. Every Query and Mutation field has
// an entry (a test walks the built schema), and the permission guard (permission-guard.ts) checks
// it before the resolver runs; a field without an entry is refused. docs/teams.md shows the same
// table for readers, and a test holds the two together; why one table: docs/decisions/permission-table.md.
// Two kinds of permission: a team permission, held by a role (ROLE_PERMISSIONS); a site permission
// (`site:read`, `site:manage`), held on one site, whose entry names the argument that leads to the
// site (a site, form, submission, webhook or delivery id), or `each` for a list of sites, cut to the
// sites the caller may see (who holds which: docs/teams.md, "Site permissions").
import type { ApiTokenLevel, MemberRole, SiteGrantLevel } from '@intake/shared/entities';
import type { Member, Principal } from './principal.js';

export const TEAM_PERMISSIONS = [
  /** Their own account: who they are, their password, their own API tokens, the limits. */
  'account',
  /** Every API token of the team, not only their own: list and revoke. */
  'tokens:all',
  'sites:create',
  'sites:delete',
  /** The console home's figures across every site and the gateway's refusals. */
  'statistics:read',
  /** Erasure on request: finds and erases a person's data across every site. */
  'erasure',
  'audit:read',
  /** The team's members: list, create, invite, change, disable, remove, reset their password or second factor (owners only for owners). */
  'members:manage',
  /** The team's sign-in policy (a second factor required, passwords beside single sign-on) and unlinking a member's single sign-on account: owners only. */
  'policy:manage',
] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

export const SITE_PERMISSIONS = ['site:read', 'site:manage'] as const;
export type SitePermission = (typeof SITE_PERMISSIONS)[number];

/** What an argument holds that leads to one site, and where the argument is (`input.siteId`). */
export type SiteObject = 'site' | 'form' | 'submission' | 'webhook' | 'delivery';
export type SiteLocator = { [Kind in SiteObject]: { [K in Kind]: string } }[SiteObject];

export type OperationRule =
  | { permission: 'public' }
  | {
      permission: TeamPermission;
      /** Needs a member signed in with their password, not an API token (a token cannot mint more of itself). */
      login?: true;
      /**
       * Adds a way in or changes how the team signs in: also needs that sign-in to be recent, started
       * or confirmed within RECENT_SIGN_IN_SECONDS (recent-sign-in.ts). Only with `login`.
       */
      recentSignIn?: true;
    }
  | { permission: SitePermission; site: SiteLocator | 'each' };

export const ROLE_PERMISSIONS: Record<MemberRole, readonly TeamPermission[]> = {
  owner: TEAM_PERMISSIONS,
  admin: TEAM_PERMISSIONS.filter((permission) => permission !== 'policy:manage'),
  member: ['account'],
};

export type Permission = TeamPermission | SitePermission;

/** What an API token's level lets it use of its member's power: `reads` is the Query fields only. */
export type TokenAllowance = 'yes' | 'reads' | 'no';

/**
 * API tokens: what each level carries (always within what its member holds right now). A token
 * limited to some sites keeps only the team permissions in SITE_LIMITED_TEAM_PERMISSIONS: the
 * others reach across every site (figures, erasure, creating and deleting sites, everyone's tokens).
 */
export const TOKEN_LEVEL_PERMISSIONS: Record<ApiTokenLevel, Record<Permission, TokenAllowance>> = {
  read: {
    account: 'reads',
    'tokens:all': 'no',
    'sites:create': 'no',
    'sites:delete': 'no',
    'statistics:read': 'yes',
    erasure: 'no',
    'audit:read': 'no',
    'members:manage': 'no',
    'policy:manage': 'no',
    'site:read': 'yes',
    'site:manage': 'no',
  },
  manage: {
    account: 'yes',
    'tokens:all': 'no',
    'sites:create': 'no',
    'sites:delete': 'no',
    'statistics:read': 'yes',
    erasure: 'no',
    'audit:read': 'no',
    'members:manage': 'no',
    'policy:manage': 'no',
    'site:read': 'yes',
    'site:manage': 'yes',
  },
  admin: {
    account: 'yes',
    'tokens:all': 'yes',
    'sites:create': 'yes',
    'sites:delete': 'yes',
    'statistics:read': 'yes',
    erasure: 'yes',
    'audit:read': 'yes',
    'members:manage': 'yes',
    // How the team signs in is changed by an owner signed in, never by a token.
    'policy:manage': 'no',
    'site:read': 'yes',
    'site:manage': 'yes',
  },
};

export const SITE_LIMITED_TEAM_PERMISSIONS: readonly TeamPermission[] = ['account'];

/** The level a new token gets when none is asked for: all its member's role can use. */
export const DEFAULT_TOKEN_LEVEL: Record<MemberRole, ApiTokenLevel> = {
  owner: 'admin',
  admin: 'admin',
  // The `admin` level would add nothing a member holds.
  member: 'manage',
};

const READ = 'site:read';
const MANAGE = 'site:manage';

/** Every operation of the admin API and what it needs. */
export const OPERATION_PERMISSIONS = {
  Query: {
    me: { permission: 'account' },
    limits: { permission: 'account' },
    apiTokens: { permission: 'account' },
    sites: { permission: READ, site: 'each' },
    site: { permission: READ, site: { site: 'id' } },
    siteApiView: { permission: MANAGE, site: { site: 'siteId' } },
    forms: { permission: READ, site: { site: 'siteId' } },
    form: { permission: READ, site: { form: 'id' } },
    submissions: { permission: READ, site: { form: 'formId' } },
    submission: { permission: READ, site: { submission: 'id' } },
    submissionCounts: { permission: READ, site: { form: 'formId' } },
    webhooks: { permission: MANAGE, site: { form: 'formId' } },
    webhook: { permission: MANAGE, site: { webhook: 'id' } },
    deliveries: { permission: MANAGE, site: { webhook: 'webhookId' } },
    emailDeliveries: { permission: MANAGE, site: { form: 'formId' } },
    submissionStats: { permission: 'statistics:read' },
    refusalStats: { permission: 'statistics:read' },
    erasureCandidates: { permission: 'erasure' },
    // A leaked integration token can neither survey who administers the service nor watch for its own traces.
    auditLog: { permission: 'audit:read', login: true },
    verifyAuditLog: { permission: 'audit:read', login: true },
    members: { permission: 'members:manage' },
    member: { permission: 'members:manage' },
    // Whoever holds an invitation link (under the attempt limit): whom it is for, and whether it holds.
    invitation: { permission: 'public' },
    // The sign-in page asks, before anyone is signed in, which ways in to offer.
    signInOptions: { permission: 'public' },
    // After a single sign-on, the second step: the HttpOnly cookie the callback set is the credential.
    ssoSecondFactor: { permission: 'public' },
    ssoPolicy: { permission: 'members:manage' },
    teamPolicy: { permission: 'account' },
    passkeys: { permission: 'account', login: true },
    // The setup dry run: each change it checks needs what its mutation needs (setup/validate-setup.ts).
    validateSetup: { permission: 'account' },
    // The names a reader already sees on assigned submissions, listed for the assignee choice.
    submissionAssignees: { permission: READ, site: { form: 'formId' } },
  },
  Mutation: {
    login: { permission: 'public' },
    logout: { permission: 'public' },
    // Its current password is its proof: no recent sign-in besides.
    changePassword: { permission: 'account', login: true },
    // A stolen session must not mint a way in that outlives it (docs/security.md#a-stolen-session).
    createApiToken: { permission: 'account', login: true, recentSignIn: true },
    // Starts a new session (or answers a new admin token) after the password, a code or a passkey.
    confirmSignIn: { permission: 'account', login: true },
    startPasskeyConfirmation: { permission: 'account', login: true },
    revokeApiToken: { permission: 'account' },
    createSite: { permission: 'sites:create' },
    updateSite: { permission: MANAGE, site: { site: 'id' } },
    deleteSite: { permission: 'sites:delete' },
    rotateSiteToken: { permission: MANAGE, site: { site: 'siteId' } },
    createForm: { permission: MANAGE, site: { site: 'input.siteId' } },
    updateForm: { permission: MANAGE, site: { form: 'id' } },
    deleteForm: { permission: MANAGE, site: { form: 'id' } },
    createSubmissionExport: { permission: READ, site: { form: 'formId' } },
    markNotSpam: { permission: MANAGE, site: { submission: 'id' } },
    deleteSubmission: { permission: MANAGE, site: { submission: 'id' } },
    setSubmissionStatus: { permission: MANAGE, site: { submission: 'id' } },
    setSubmissionsStatus: { permission: MANAGE, site: { form: 'formId' } },
    // The bulk actions: ids of another form (another site) are left alone.
    assignSubmissions: { permission: MANAGE, site: { form: 'formId' } },
    markSubmissionsSpam: { permission: MANAGE, site: { form: 'formId' } },
    deleteSubmissions: { permission: MANAGE, site: { form: 'formId' } },
    assignSubmission: { permission: MANAGE, site: { submission: 'id' } },
    addSubmissionNote: { permission: MANAGE, site: { submission: 'id' } },
    // Read and unread are each member's own; ids of another form (another site) are left alone.
    markSubmissionsRead: { permission: READ, site: { form: 'formId' } },
    eraseSubmissions: { permission: 'erasure' },
    createWebhook: { permission: MANAGE, site: { form: 'input.formId' } },
    updateWebhook: { permission: MANAGE, site: { webhook: 'id' } },
    deleteWebhook: { permission: MANAGE, site: { webhook: 'id' } },
    rotateWebhookSecret: { permission: MANAGE, site: { webhook: 'id' } },
    sendTestWebhook: { permission: MANAGE, site: { webhook: 'id' } },
    redeliver: { permission: MANAGE, site: { delivery: 'deliveryId' } },
    // Its answer is a new password: a leaked integration token could mint a sign-in of its own.
    createMember: { permission: 'members:manage', login: true, recentSignIn: true },
    // A role, site access or an enabled account for someone else: with a stolen session, an
    // accomplice's account made owner. An integration token (setup as code) still may.
    updateMember: { permission: 'members:manage', recentSignIn: true },
    removeMember: { permission: 'members:manage' },
    // Without SMTP their answer is a link that makes a member: as createMember, a sign-in's only.
    inviteMember: { permission: 'members:manage', login: true, recentSignIn: true },
    resendInvitation: { permission: 'members:manage', login: true, recentSignIn: true },
    revokeInvitation: { permission: 'members:manage' },
    acceptInvitation: { permission: 'public' },
    // Who may sign in how: never from an integration token.
    updateSsoPolicy: { permission: 'policy:manage', login: true, recentSignIn: true },
    unlinkSsoAccount: { permission: 'policy:manage', login: true, recentSignIn: true },
    // Reads the whole log, as auditLog does: a login, not an integration token.
    exportAuditLog: { permission: 'audit:read', login: true },
    // Two-factor sign-in (docs/sign-in.md): the code after the password needs no credential (the
    // challenge of `login` stands in for the password); the second factor itself is changed only
    // signed in, and never by a token; turning it off and new recovery codes take a code, their proof.
    verifySecondFactor: { permission: 'public' },
    startTwoFactorEnrolment: { permission: 'account', login: true, recentSignIn: true },
    confirmTwoFactor: { permission: 'account', login: true, recentSignIn: true },
    disableTwoFactor: { permission: 'account', login: true },
    regenerateRecoveryCodes: { permission: 'account', login: true },
    // An owner or admin resets a member below them (access/member-rank.ts), signed in recently.
    resetMemberTwoFactor: { permission: 'members:manage', login: true, recentSignIn: true },
    resetMemberPassword: { permission: 'members:manage', login: true, recentSignIn: true },
    // The link is the credential; both are under their own attempt limits (login-policy.ts).
    requestPasswordReset: { permission: 'public' },
    resetPassword: { permission: 'public' },
    updateTeamPolicy: { permission: 'policy:manage', login: true, recentSignIn: true },
    // Passkeys (docs/sign-in.md): sign-in needs no credential (the passkey is one, and as a second
    // factor the `login` challenge stands in for the password); each member manages their own.
    startPasskeySignIn: { permission: 'public' },
    finishPasskeySignIn: { permission: 'public' },
    startPasskeyRegistration: { permission: 'account', login: true, recentSignIn: true },
    finishPasskeyRegistration: { permission: 'account', login: true, recentSignIn: true },
    renamePasskey: { permission: 'account', login: true },
    removePasskey: { permission: 'account', login: true, recentSignIn: true },
    updateAccount: { permission: 'account' },
  },
} as const satisfies Record<'Query' | 'Mutation', Record<string, OperationRule>>;

export type RootType = keyof typeof OPERATION_PERMISSIONS;

/**
 * What a member may still do while the team requires a second factor they do not have yet: see who
 * they are and why, set one up, and sign out. Everything else is SECOND_FACTOR_ENROLMENT_REQUIRED.
 */
export const OPEN_DURING_ENROLMENT: Readonly<Record<RootType, readonly string[]>> = {
  Query: ['me', 'teamPolicy', 'passkeys'],
  Mutation: [
    'login',
    'logout',
    'verifySecondFactor',
    'startTwoFactorEnrolment',
    'confirmTwoFactor',
    // An old session confirms before it enrols.
    'confirmSignIn',
    'startPasskeySignIn',
    'finishPasskeySignIn',
    'startPasskeyRegistration',
    'finishPasskeyRegistration',
  ],
};

export function openDuringEnrolment(rootType: string, field: string): boolean {
  return (rootType === 'Query' || rootType === 'Mutation') && OPEN_DURING_ENROLMENT[rootType].includes(field);
}

/** The entry of one root field, or undefined when it has none (the guard then refuses it). */
export function ruleOf(rootType: string, field: string): OperationRule | undefined {
  const rules: Record<string, OperationRule> | undefined =
    rootType === 'Query' || rootType === 'Mutation' ? OPERATION_PERMISSIONS[rootType] : undefined;
  return rules !== undefined && Object.hasOwn(rules, field) ? rules[field] : undefined;
}

export function holdsTeamPermission(member: Member, permission: TeamPermission): boolean {
  return ROLE_PERMISSIONS[member.role].includes(permission);
}

/** How far the member reaches into one site: null when they may not see it at all. */
export function siteLevel(member: Member, siteId: string): SiteGrantLevel | null {
  return member.role === 'member' ? (member.grants.get(siteId) ?? null) : 'manage';
}

/** Whether a level on a site covers a site permission. */
export function levelCovers(level: SiteGrantLevel, permission: SitePermission): boolean {
  return permission === 'site:read' || level === 'manage';
}

function tokenAllows(level: ApiTokenLevel, rootType: string, permission: Permission): boolean {
  const allowance = TOKEN_LEVEL_PERMISSIONS[level][permission];
  return allowance === 'yes' || (allowance === 'reads' && rootType === 'Query');
}

/**
 * Whether the caller may use a team permission in an operation of `rootType`: their member's role
 * holds it and, for an API token, its level and site list allow it.
 */
export function mayUseTeamPermission(principal: Principal, rootType: string, permission: TeamPermission): boolean {
  if (!holdsTeamPermission(principal.member, permission)) {
    return false;
  }
  if (principal.kind !== 'api_token') {
    return true;
  }
  if (principal.scope.siteIds !== null && !SITE_LIMITED_TEAM_PERMISSIONS.includes(permission)) {
    return false;
  }
  return tokenAllows(principal.scope.level, rootType, permission);
}

/**
 * How far the caller reaches into one site: their member's level there, cut by an API token's
 * site list (null: as if the site did not exist) and level (a read token reads, whatever its member may).
 */
export function callerSiteLevel(principal: Principal, siteId: string): SiteGrantLevel | null {
  const level = siteLevel(principal.member, siteId);
  if (level === null || principal.kind !== 'api_token') {
    return level;
  }
  if (principal.scope.siteIds !== null && !principal.scope.siteIds.has(siteId)) {
    return null;
  }
  return tokenAllows(principal.scope.level, 'Mutation', 'site:manage') ? level : 'read';
}

/**
 * The team permissions the caller may use (for reading them at least): their role's, cut by an API
 * token's level and site list. What `me.permissions` answers, so the console offers only those.
 */
export function callerTeamPermissions(principal: Principal): TeamPermission[] {
  return TEAM_PERMISSIONS.filter((permission) => mayUseTeamPermission(principal, 'Query', permission));
}
