// The ordered list of migrations, shared by the embedded PGlite and PostgreSQL. Listed explicitly
// (not discovered from the file system) so the compiled services and the tests run the same set.
// `npm run migration:create` regenerates this file.
import type { Migration } from '@mikro-orm/migrations';
import { Migration20261121123748_initial } from './Migration20261121123748_initial.js';
import { Migration20261121131553_webhooks } from './Migration20261121131553_webhooks.js';
import { Migration20261121133000_site_change_notify } from './Migration20261121133000_site_change_notify.js';
import { Migration20261121140000_webhook_change_notify } from './Migration20261121140000_webhook_change_notify.js';
import { Migration20261123220000_admin_sessions } from './Migration20261123220000_admin_sessions.js';
import { Migration20261123230000_spam_protection } from './Migration20261123230000_spam_protection.js';
import { Migration20261124010000_submission_search } from './Migration20261124010000_submission_search.js';
import { Migration20261124020000_retention } from './Migration20261124020000_retention.js';
import { Migration20261124030000_audit_log } from './Migration20261124030000_audit_log.js';
import { Migration20261124040000_refusal_counts } from './Migration20261124040000_refusal_counts.js';
import { Migration20261126100000_sanitized_fields } from './Migration20261126100000_sanitized_fields.js';
import { Migration20261126100100_stored_text_search } from './Migration20261126100100_stored_text_search.js';
import { Migration20261126120000_members } from './Migration20261126120000_members.js';
import { Migration20261126140000_api_token_scope } from './Migration20261126140000_api_token_scope.js';
import { Migration20261126180000_invitations } from './Migration20261126180000_invitations.js';
import { Migration20261126183000_receipts } from './Migration20261126183000_receipts.js';
import { Migration20261126185000_form_shapes } from './Migration20261126185000_form_shapes.js';
import { Migration20261126182000_sso_policy } from './Migration20261126182000_sso_policy.js';
import { Migration20261126184000_audit_chain } from './Migration20261126184000_audit_chain.js';
import { Migration20261126181000_two_factor } from './Migration20261126181000_two_factor.js';
import { Migration20261126190000_passkeys } from './Migration20261126190000_passkeys.js';
import { Migration20261127100000_sso_links } from './Migration20261127100000_sso_links.js';
import { Migration20261127110000_recent_sign_in } from './Migration20261127110000_recent_sign_in.js';
import { Migration20261127120000_audit_chain_trust } from './Migration20261127120000_audit_chain_trust.js';
import { Migration20261128120000_browser_posting } from './Migration20261128120000_browser_posting.js';
import { Migration20261129110000_password_resets } from './Migration20261129110000_password_resets.js';
import { Migration20261129130000_form_caps } from './Migration20261129130000_form_caps.js';
import { Migration20261130110000_confirmations } from './Migration20261130110000_confirmations.js';
import { Migration20261130130000_notify_file_links } from './Migration20261130130000_notify_file_links.js';
import { Migration20261201100000_search_off_request_path } from './Migration20261201100000_search_off_request_path.js';
import { Migration20261202100000_search_created_at } from './Migration20261202100000_search_created_at.js';
import { Migration20261129150000_inbox_state } from './Migration20261129150000_inbox_state.js';
import { Migration20261130100000_webhook_formats } from './Migration20261130100000_webhook_formats.js';
import { Migration20261130120000_submission_events } from './Migration20261130120000_submission_events.js';

type MigrationClass = new (...args: ConstructorParameters<typeof Migration>) => Migration;

export const MIGRATIONS: { name: string; class: MigrationClass }[] = [
  { name: 'Migration20261121123748_initial', class: Migration20261121123748_initial },
  { name: 'Migration20261121131553_webhooks', class: Migration20261121131553_webhooks },
  { name: 'Migration20261121133000_site_change_notify', class: Migration20261121133000_site_change_notify },
  { name: 'Migration20261121140000_webhook_change_notify', class: Migration20261121140000_webhook_change_notify },
  { name: 'Migration20261123220000_admin_sessions', class: Migration20261123220000_admin_sessions },
  { name: 'Migration20261123230000_spam_protection', class: Migration20261123230000_spam_protection },
  { name: 'Migration20261124010000_submission_search', class: Migration20261124010000_submission_search },
  { name: 'Migration20261124020000_retention', class: Migration20261124020000_retention },
  { name: 'Migration20261124030000_audit_log', class: Migration20261124030000_audit_log },
  { name: 'Migration20261124040000_refusal_counts', class: Migration20261124040000_refusal_counts },
  { name: 'Migration20261126100000_sanitized_fields', class: Migration20261126100000_sanitized_fields },
  { name: 'Migration20261126100100_stored_text_search', class: Migration20261126100100_stored_text_search },
  { name: 'Migration20261126120000_members', class: Migration20261126120000_members },
  { name: 'Migration20261126140000_api_token_scope', class: Migration20261126140000_api_token_scope },
  { name: 'Migration20261126180000_invitations', class: Migration20261126180000_invitations },
  { name: 'Migration20261126183000_receipts', class: Migration20261126183000_receipts },
  { name: 'Migration20261126185000_form_shapes', class: Migration20261126185000_form_shapes },
  { name: 'Migration20261126182000_sso_policy', class: Migration20261126182000_sso_policy },
  { name: 'Migration20261126184000_audit_chain', class: Migration20261126184000_audit_chain },
  { name: 'Migration20261126181000_two_factor', class: Migration20261126181000_two_factor },
  { name: 'Migration20261126190000_passkeys', class: Migration20261126190000_passkeys },
  { name: 'Migration20261127100000_sso_links', class: Migration20261127100000_sso_links },
  { name: 'Migration20261127110000_recent_sign_in', class: Migration20261127110000_recent_sign_in },
  { name: 'Migration20261127120000_audit_chain_trust', class: Migration20261127120000_audit_chain_trust },
  { name: 'Migration20261128120000_browser_posting', class: Migration20261128120000_browser_posting },
  { name: 'Migration20261129110000_password_resets', class: Migration20261129110000_password_resets },
  { name: 'Migration20261129130000_form_caps', class: Migration20261129130000_form_caps },
  { name: 'Migration20261129150000_inbox_state', class: Migration20261129150000_inbox_state },
  { name: 'Migration20261130100000_webhook_formats', class: Migration20261130100000_webhook_formats },
  { name: 'Migration20261130110000_confirmations', class: Migration20261130110000_confirmations },
  { name: 'Migration20261130120000_submission_events', class: Migration20261130120000_submission_events },
  { name: 'Migration20261130130000_notify_file_links', class: Migration20261130130000_notify_file_links },
  { name: 'Migration20261201100000_search_off_request_path', class: Migration20261201100000_search_off_request_path },
  { name: 'Migration20261202100000_search_created_at', class: Migration20261202100000_search_created_at },
];
