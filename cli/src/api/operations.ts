// The GraphQL documents the command line sends, with the shapes of their answers (docs/schema.graphql).

export const SITE_FIELDS = 'id name domain formCount submissionsLast7Days createdAt updatedAt';
export const FORM_FIELDS = `id siteId name code endpointUrl enabled allowedMimeTypes usesDefaultMimeTypes maxFileSize
  notifyEmails honeypotFields captchaProvider captchaSecretSet captchaResponseField captchaMinScore
  captchaUnavailableAsSpam duplicateWindowSeconds maxLinks blockedWords retentionDays
  fields { name type required maxLength choices } unknownFields submissionCount spamCount
  lastSubmissionAt createdAt updatedAt`;
export const WEBHOOK_FIELDS =
  'id formId url description enabled disabledAt disabledReason failingSince lastSuccessAt createdAt updatedAt';
export const API_TOKEN_FIELDS = 'id name level siteIds createdAt lastUsedAt expiresAt';
export const MEMBER_FIELDS = 'id email name role status grants { level site { id name } }';
export const SUBMISSION_FIELDS =
  'id formId createdAt spam spamReason data sanitizedFields files { id field name mimeType size sha256 downloadUrl }';

export interface Site {
  id: string;
  name: string;
  domain: string | null;
  formCount: number;
  submissionsLast7Days: number;
  createdAt: string;
  updatedAt: string;
}

export type CaptchaProvider = 'HCAPTCHA' | 'RECAPTCHA_V2' | 'RECAPTCHA_V3' | 'TURNSTILE';

export type FieldType = 'TEXT' | 'EMAIL' | 'NUMBER' | 'BOOLEAN' | 'CHOICE' | 'LIST';
export type UnknownFields = 'REFUSE' | 'DROP';

/** A field a form declares (docs/form-fields.md), as `Form.fields` gives it and `updateForm` takes it. */
export interface FormField {
  name: string;
  type: FieldType;
  required: boolean;
  maxLength: number | null;
  choices: string[] | null;
}

export interface Form {
  id: string;
  siteId: string;
  name: string;
  code: string;
  endpointUrl: string;
  enabled: boolean;
  allowedMimeTypes: string[];
  usesDefaultMimeTypes: boolean;
  maxFileSize: number;
  notifyEmails: string[];
  honeypotFields: string[];
  captchaProvider: CaptchaProvider | null;
  captchaSecretSet: boolean;
  captchaResponseField: string | null;
  captchaMinScore: number | null;
  captchaUnavailableAsSpam: boolean;
  duplicateWindowSeconds: number | null;
  maxLinks: number | null;
  blockedWords: string[];
  retentionDays: number | null;
  fields: FormField[];
  unknownFields: UnknownFields;
  submissionCount: number;
  spamCount: number;
  lastSubmissionAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Webhook {
  id: string;
  formId: string;
  url: string;
  description: string | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  lastSuccessAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ApiTokenLevel = 'READ' | 'MANAGE' | 'ADMIN';

export interface ApiToken {
  id: string;
  name: string;
  level: ApiTokenLevel;
  siteIds: string[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export type GrantLevel = 'read' | 'manage';

export interface Member {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'member';
  status: string;
  grants: { level: GrantLevel; site: { id: string; name: string } }[];
}

export interface Submission {
  id: string;
  formId: string;
  createdAt: string;
  spam: boolean;
  spamReason: string | null;
  data: Record<string, unknown>;
  sanitizedFields: string[];
  files: {
    id: string;
    field: string;
    name: string;
    mimeType: string;
    size: number;
    sha256: string;
    downloadUrl: string;
  }[];
}

export interface Limits {
  maxFileSize: number;
  fileTypes: { mimeType: string }[];
}

/** What `verifyAuditLog` found (docs/audit-log.md). */
export interface AuditVerification {
  valid: boolean;
  checkedEntries: number;
  firstBadSequence: number | null;
  problem: string | null;
}

/** `exportAuditLog`: the NDJSON that scripts/verify-audit-log.mjs checks offline. */
export interface AuditLogExport {
  fileName: string;
  entries: number;
  content: string;
}

/** Settings `updateForm` takes (absent: left as is; null: reset or off). */
export interface UpdateFormInput {
  name?: string;
  enabled?: boolean;
  allowedMimeTypes?: string[] | null;
  maxFileSize?: number | null;
  notifyEmails?: string[] | null;
  honeypotFields?: string[] | null;
  captchaProvider?: CaptchaProvider | null;
  captchaSecret?: string;
  captchaResponseField?: string | null;
  captchaMinScore?: number | null;
  captchaUnavailableAsSpam?: boolean;
  duplicateWindowSeconds?: number | null;
  maxLinks?: number | null;
  blockedWords?: string[] | null;
  retentionDays?: number | null;
  fields?: FormField[] | null;
  unknownFields?: UnknownFields;
}

export const Q = {
  me: 'query { me { id email name role } }',
  limits: 'query { limits { maxFileSize fileTypes { mimeType } } }',
  sites: `query { sites { ${SITE_FIELDS} } }`,
  site: `query($id: ID!) { site(id: $id) { ${SITE_FIELDS} } }`,
  createSite: `mutation($input: CreateSiteInput!) { createSite(input: $input) { ${SITE_FIELDS} } }`,
  updateSite: `mutation($id: ID!, $input: UpdateSiteInput!) { updateSite(id: $id, input: $input) { ${SITE_FIELDS} } }`,
  deleteSite: 'mutation($id: ID!) { deleteSite(id: $id) }',
  siteApiView:
    'query($siteId: ID!) { siteApiView(siteId: $siteId) { siteId token forms { id name code endpointUrl } } }',
  rotateSiteToken:
    'mutation($siteId: ID!) { rotateSiteToken(siteId: $siteId) { siteId token forms { id name code endpointUrl } } }',
  forms: `query($siteId: ID!) { forms(siteId: $siteId) { ${FORM_FIELDS} } }`,
  form: `query($id: ID!) { form(id: $id) { ${FORM_FIELDS} } }`,
  createForm: `mutation($input: CreateFormInput!) { createForm(input: $input) { ${FORM_FIELDS} } }`,
  updateForm: `mutation($id: ID!, $input: UpdateFormInput!) { updateForm(id: $id, input: $input) { ${FORM_FIELDS} } }`,
  deleteForm: 'mutation($id: ID!) { deleteForm(id: $id) }',
  webhooks: `query($formId: ID!) { webhooks(formId: $formId) { ${WEBHOOK_FIELDS} } }`,
  webhook: `query($id: ID!) { webhook(id: $id) { ${WEBHOOK_FIELDS} } }`,
  createWebhook: `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${WEBHOOK_FIELDS} } } }`,
  updateWebhook: `mutation($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${WEBHOOK_FIELDS} } }`,
  deleteWebhook: 'mutation($id: ID!) { deleteWebhook(id: $id) }',
  rotateWebhookSecret: `mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret webhook { ${WEBHOOK_FIELDS} } } }`,
  sendTestWebhook: 'mutation($id: ID!) { sendTestWebhook(id: $id) { id status eventType createdAt } }',
  apiTokens: `query { apiTokens { ${API_TOKEN_FIELDS} } }`,
  createApiToken: `mutation($name: String!, $scope: ApiTokenScopeInput) { createApiToken(name: $name, scope: $scope) { token apiToken { ${API_TOKEN_FIELDS} } } }`,
  revokeApiToken: 'mutation($id: ID!) { revokeApiToken(id: $id) }',
  members: `query { members { ${MEMBER_FIELDS} } }`,
  updateMemberGrants: `mutation($id: ID!, $grants: [SiteGrantInput!]!) { updateMember(id: $id, input: { grants: $grants }) { ${MEMBER_FIELDS} } }`,
  submissions: `query($formId: ID!, $first: Int, $after: String, $spam: Boolean, $filter: SubmissionFilterInput) {
    submissions(formId: $formId, first: $first, after: $after, spam: $spam, filter: $filter) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { ${SUBMISSION_FIELDS} } } } }`,
  submissionCount: `query($formId: ID!, $spam: Boolean, $filter: SubmissionFilterInput) {
    submissions(formId: $formId, first: 0, spam: $spam, filter: $filter) { totalCount } }`,
  submission: `query($id: ID!) { submission(id: $id) { ${SUBMISSION_FIELDS} } }`,
  deleteSubmission: 'mutation($id: ID!) { deleteSubmission(id: $id) }',
  createExport: `mutation($formId: ID!, $format: SubmissionExportFormat!, $filter: SubmissionFilterInput, $spam: Boolean) {
    createSubmissionExport(formId: $formId, format: $format, filter: $filter, spam: $spam) { url expiresAt } }`,
  auditLog: `query($first: Int, $after: String, $filter: AuditLogFilterInput) { auditLog(first: $first, after: $after, filter: $filter) {
    pageInfo { hasNextPage endCursor } edges { node { id at actor { kind id name } action objectType objectId outcome errorCode address requestId details } } } }`,
  verifyAuditLog: 'query { verifyAuditLog { valid checkedEntries firstBadSequence problem } }',
  exportAuditLog: 'mutation { exportAuditLog { fileName entries content } }',
  erasureCandidates: `query($value: String!) { erasureCandidates(value: $value) {
    id createdAt spam siteId siteName siteDeleted formId formName formDeleted matchingFields } }`,
  eraseSubmissions:
    'mutation($ids: [ID!]!) { eraseSubmissions(ids: $ids) { erasedIds notFoundIds fileCount deliveryCount } }',
} as const;
