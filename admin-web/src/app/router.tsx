// Every route of the console. Pages live in src/features/<feature>/; the layouts that join them
// (the shell, a site's and a form's sub-navigation) live in src/app/layout/, and a page that shows
// two features' parts is joined in src/app/routes/.
//
// Each page and layout is its own chunk, fetched the first time its route is opened (the route's
// `lazy`), so the sign-in page loads the router, the session and itself, not the signed-in pages.
// Until the first page's chunk is here, `HydrateFallback` shows a spinner; a chunk that cannot be
// fetched (a console left open across an upgrade asks for a file the new build no longer has) ends
// in `RouteErrorPage`, which offers a reload.
import { Navigate, createBrowserRouter } from 'react-router';
import { paths } from '../lib/paths';
import { PageLoading } from './layout/page-loading';
import { RouteErrorPage } from './layout/route-error-page';
import { SessionRoot } from './session';

export const router = createBrowserRouter([
  {
    element: <SessionRoot />,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        path: 'sign-in',
        lazy: { Component: async () => (await import('../features/auth/sign-in-page')).SignInPage },
      },
      {
        // Public: the page an invitation link opens (the token is in the fragment).
        path: 'invitation',
        lazy: { Component: async () => (await import('../features/invitations/invitation-page')).InvitationPage },
      },
      {
        // Public: the page a password reset link opens (the token is in the fragment).
        path: 'reset-password',
        lazy: { Component: async () => (await import('../features/auth/reset-password-page')).ResetPasswordPage },
      },
      {
        lazy: { Component: async () => (await import('./layout/signed-in-layout')).SignedInLayout },
        children: [
          { index: true, element: <Navigate to={paths.sites} replace /> },
          {
            lazy: { Component: async () => (await import('./layout/access-routes')).teamOnly('statistics:read') },
            children: [
              {
                path: 'overview',
                lazy: { Component: async () => (await import('../features/overview/overview-page')).OverviewPage },
              },
              {
                path: 'overview/spam',
                lazy: {
                  Component: async () => (await import('../features/overview/spam-all-forms-page')).SpamAllFormsPage,
                },
              },
            ],
          },
          {
            path: 'sites',
            lazy: { Component: async () => (await import('../features/sites/sites-page')).SitesPage },
          },
          {
            path: 'sites/:siteId',
            lazy: { Component: async () => (await import('./layout/site-layout')).SiteLayout },
            children: [
              { index: true, element: <Navigate to="forms" replace /> },
              {
                path: 'forms',
                lazy: { Component: async () => (await import('../features/forms/forms-page')).FormsPage },
              },
              {
                lazy: { Component: async () => (await import('./layout/access-routes')).ManageOnlyRoute },
                children: [
                  {
                    path: 'api',
                    lazy: {
                      Component: async () => (await import('../features/api-view/api-view-page')).ApiViewPage,
                    },
                  },
                ],
              },
              {
                path: 'forms/:formId',
                lazy: { Component: async () => (await import('./layout/form-layout')).FormLayout },
                children: [
                  {
                    index: true,
                    lazy: {
                      Component: async () => (await import('../features/submissions/submissions-page')).SubmissionsPage,
                    },
                  },
                  {
                    path: 'submissions/:submissionId',
                    lazy: {
                      Component: async () =>
                        (await import('../features/submissions/submission-detail-page')).SubmissionDetailPage,
                    },
                  },
                  {
                    lazy: { Component: async () => (await import('./layout/access-routes')).ManageOnlyRoute },
                    children: [
                      {
                        path: 'webhooks',
                        lazy: {
                          Component: async () => (await import('../features/webhooks/webhooks-page')).WebhooksPage,
                        },
                      },
                      {
                        path: 'settings',
                        lazy: {
                          Component: async () =>
                            (await import('../features/forms/form-settings-page')).FormSettingsPage,
                        },
                      },
                    ],
                  },
                  {
                    path: 'spam',
                    lazy: { Component: async () => (await import('../features/submissions/spam-page')).SpamPage },
                  },
                ],
              },
            ],
          },
          {
            path: 'api-tokens',
            lazy: { Component: async () => (await import('../features/tokens/tokens-page')).TokensPage },
          },
          {
            lazy: { Component: async () => (await import('./layout/access-routes')).teamOnly('erasure') },
            children: [
              {
                path: 'erasure',
                lazy: { Component: async () => (await import('../features/erasure/erasure-page')).ErasurePage },
              },
            ],
          },
          {
            lazy: { Component: async () => (await import('./layout/access-routes')).teamOnly('audit:read') },
            children: [
              {
                path: 'audit-log',
                lazy: { Component: async () => (await import('../features/audit/audit-log-page')).AuditLogPage },
              },
            ],
          },
          {
            lazy: { Component: async () => (await import('./layout/access-routes')).teamOnly('members:manage') },
            children: [
              {
                path: 'members',
                lazy: { Component: async () => (await import('../features/members/members-page')).MembersPage },
              },
            ],
          },
          {
            path: 'account/two-factor',
            lazy: { Component: async () => (await import('./routes/two-factor-route')).TwoFactorRoute },
          },
          {
            path: 'account',
            lazy: { Component: async () => (await import('./routes/account-route')).AccountRoute },
          },
          // The password had a page of its own before the account page held it.
          { path: 'account/password', element: <Navigate to={paths.account} replace /> },
          {
            path: '*',
            lazy: { Component: async () => (await import('./layout/not-found-page')).NotFoundPage },
          },
        ],
      },
    ],
  },
]);
