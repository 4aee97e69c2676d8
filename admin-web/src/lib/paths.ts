// Every page's path in one place, so links and routes (src/app/router.tsx) agree.
export const paths = {
  overview: '/overview',
  spamAllForms: '/overview/spam',
  sites: '/sites',
  siteForms: (siteId: string) => `/sites/${siteId}/forms`,
  siteApi: (siteId: string) => `/sites/${siteId}/api`,
  formSubmissions: (siteId: string, formId: string) => `/sites/${siteId}/forms/${formId}`,
  formSubmission: (siteId: string, formId: string, submissionId: string) =>
    `/sites/${siteId}/forms/${formId}/submissions/${submissionId}`,
  formWebhooks: (siteId: string, formId: string) => `/sites/${siteId}/forms/${formId}/webhooks`,
  formSpam: (siteId: string, formId: string) => `/sites/${siteId}/forms/${formId}/spam`,
  formSettings: (siteId: string, formId: string) => `/sites/${siteId}/forms/${formId}/settings`,
  apiTokens: '/api-tokens',
  erasure: '/erasure',
  auditLog: '/audit-log',
  members: '/members',
  account: '/account',
  twoFactor: '/account/two-factor',
} as const;
