// Short names for the shapes of the admin API's answers that the command line passes around. They
// come from the typed documents GraphQL Code Generator makes from the `.graphql` files under src/
// (src/gql/graphql.ts, generated at build), so they follow docs/schema.graphql without a hand copy.
import type {
  FormFieldsFragment,
  LimitsQuery,
  MemberFieldsFragment,
  SiteFieldsFragment,
  WebhookFieldsFragment,
} from '../gql/graphql.js';

export type { SiteGrantLevel as GrantLevel, UpdateFormInput } from '../gql/graphql.js';

export type Site = SiteFieldsFragment;
export type Form = FormFieldsFragment;
/** A field a form declares (docs/form-fields.md), as `Form.fields` gives it and `updateForm` takes it. */
export type FormField = Form['fields'][number];
export type Webhook = WebhookFieldsFragment;
export type Member = MemberFieldsFragment;
export type Limits = LimitsQuery['limits'];
