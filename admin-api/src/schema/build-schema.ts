import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { authChecker } from '../access/auth-checker.js';
import { permissionGuard } from '../access/permission-guard.js';
import { AccountResolver } from '../team/account/account.resolver.js';
import { ApiTokenResolver } from '../tokens/api-token.resolver.js';
import { AuditLogResolver } from '../audit/audit-log.resolver.js';
import { AuthResolver } from '../sign-in/password/auth.resolver.js';
import { ErasureResolver } from '../erasure/erasure.resolver.js';
import { FormFieldsResolver, FormResolver } from '../forms/form.resolver.js';
import { InvitationResolver } from '../team/invitations/invitation.resolver.js';
import { LimitsResolver } from '../forms/limits.resolver.js';
import { MemberResolver } from '../team/members/member.resolver.js';
import { SetupResolver } from '../setup/setup.resolver.js';
import { SiteFieldsResolver, SiteResolver } from '../sites/site.resolver.js';
import { SsoResolver } from '../sign-in/sso/sso.resolver.js';
import { StatisticsResolver } from '../statistics/statistics.resolver.js';
import { SubmissionExportResolver } from '../exports/submission-export.resolver.js';
import { SubmissionConnectionResolver } from '../submissions/submission-connection.resolver.js';
import { SubmissionDeliveriesResolver } from '../submissions/submission-deliveries.resolver.js';
import { SubmissionFieldsResolver } from '../submissions/submission-fields.resolver.js';
import { SubmissionResolver } from '../submissions/submission.resolver.js';
import { InboxStateFieldsResolver } from '../submissions/inbox-state-fields.resolver.js';
import { InboxStateResolver } from '../submissions/inbox-state.resolver.js';
import { AccountPasskeyCountResolver, MemberPasskeyCountResolver } from '../sign-in/passkeys/passkey-count.resolver.js';
import { PasskeyResolver } from '../sign-in/passkeys/passkey.resolver.js';
import { RecentSignInResolver } from '../sign-in/confirmation/recent-sign-in.resolver.js';
import { TwoFactorResolver } from '../sign-in/two-factor/two-factor.resolver.js';
import { PasswordResetResolver } from '../sign-in/recovery/password-reset.resolver.js';
import { MemberSecondFactorResolver } from '../team/members/member-second-factor.resolver.js';
import { TeamPolicyResolver } from '../team/policy/team-policy.resolver.js';
import { DeliveryAlertsResolver } from '../webhooks/delivery-alerts.resolver.js';
import { WebhookResolver } from '../webhooks/webhook.resolver.js';

/** The admin GraphQL schema, from the type-graphql resolvers. Built once per app. */
export function buildAdminSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      AuthResolver,
      ApiTokenResolver,
      SiteResolver,
      SiteFieldsResolver,
      FormResolver,
      FormFieldsResolver,
      LimitsResolver,
      StatisticsResolver,
      SubmissionResolver,
      SubmissionConnectionResolver,
      SubmissionFieldsResolver,
      SubmissionDeliveriesResolver,
      InboxStateResolver,
      InboxStateFieldsResolver,
      SubmissionExportResolver,
      WebhookResolver,
      SetupResolver,
      DeliveryAlertsResolver,
      ErasureResolver,
      AuditLogResolver,
      MemberResolver,
      InvitationResolver,
      SsoResolver,
      TwoFactorResolver,
      PasswordResetResolver,
      MemberSecondFactorResolver,
      TeamPolicyResolver,
      PasskeyResolver,
      RecentSignInResolver,
      AccountPasskeyCountResolver,
      MemberPasskeyCountResolver,
      AccountResolver,
    ],
    authChecker,
    // The permission table (access/permissions.ts), checked before every root field's resolver.
    globalMiddlewares: [permissionGuard],
    // Input arguments are checked and normalised by the zod schemas their classes declare
    // (validation/input-type.ts), scalar ones by the resolvers (validation/fields.ts).
    validate: false,
    // type-graphql would run a whole introspection query to check the schema: a second per start of
    // the admin API on the 2-core machine. graphql-js validates the schema itself before the first
    // operation, and the build prints it (docs/schema.graphql), so a broken schema still fails early.
    skipCheck: true,
  });
}
