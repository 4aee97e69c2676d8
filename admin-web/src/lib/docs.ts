// Links to the documentation the console's build carries (admin-web/docs-pages.ts writes the README
// and docs/ as pages under /docs/). Each page and anchor named here is checked against the build by
// src/docs-pages.test.ts.
export const DOCS_PAGES = {
  index: 'index.html',
  overview: 'submissions.html#statistics',
  spam: 'spam-protection.html',
  sites: 'console.html#views',
  forms: 'intake-api.html',
  formSettings: 'console.html#views',
  submissions: 'submissions.html#finding-submissions',
  submission: 'submissions.html#status-assignee-and-notes',
  webhooks: 'webhooks.html',
  apiView: 'intake-api.html',
  apiTokens: 'teams.html#api-tokens-a-level-sites-and-an-end',
  members: 'teams.html#managing-members',
  erasure: 'submissions.html#erasure-on-request',
  auditLog: 'audit-log.html',
  account: 'teams.html#your-own-account',
  twoFactor: 'sign-in.html',
} as const;

export type DocsPage = keyof typeof DOCS_PAGES;

export function docsUrl(page: DocsPage): string {
  return `/docs/${DOCS_PAGES[page]}`;
}
