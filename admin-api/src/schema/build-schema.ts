import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { authChecker } from '../auth/auth-checker.js';
import { ApiTokenResolver } from '../resolvers/api-token.resolver.js';
import { AuthResolver } from '../resolvers/auth.resolver.js';
import { FormResolver } from '../resolvers/form.resolver.js';
import { LimitsResolver } from '../resolvers/limits.resolver.js';
import { SiteResolver } from '../resolvers/site.resolver.js';
import { FormStatsResolver, SiteStatsResolver } from '../resolvers/stats.resolver.js';
import { SubmissionResolver } from '../resolvers/submission.resolver.js';
import { WebhookResolver } from '../resolvers/webhook.resolver.js';

/** The admin GraphQL schema, from the type-graphql resolvers. Built once per app. */
export function buildAdminSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [
      AuthResolver,
      ApiTokenResolver,
      SiteResolver,
      SiteStatsResolver,
      FormResolver,
      FormStatsResolver,
      LimitsResolver,
      SubmissionResolver,
      WebhookResolver,
    ],
    authChecker,
    // Arguments are checked by the resolvers (validation/fields.ts), which also normalise them.
    validate: false,
  });
}
