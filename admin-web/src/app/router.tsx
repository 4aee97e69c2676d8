// Every route of the console. Pages live in src/features/<feature>/; the layouts that join them
// (the shell, a site's and a form's sub-navigation) live in src/app/layout/.
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
        lazy: { Component: async () => (await import('./layout/signed-in-layout')).SignedInLayout },
        children: [
          { index: true, element: <Navigate to={paths.sites} replace /> },
          {
            path: 'overview',
            lazy: { Component: async () => (await import('../features/overview/overview-page')).OverviewPage },
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
                path: 'api',
                lazy: { Component: async () => (await import('../features/api-view/api-view-page')).ApiViewPage },
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
                    path: 'webhooks',
                    lazy: { Component: async () => (await import('../features/webhooks/webhooks-page')).WebhooksPage },
                  },
                  {
                    path: 'spam',
                    lazy: { Component: async () => (await import('../features/spam/spam-page')).SpamPage },
                  },
                  {
                    path: 'settings',
                    lazy: {
                      Component: async () => (await import('../features/forms/form-settings-page')).FormSettingsPage,
                    },
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
            path: 'erasure',
            lazy: { Component: async () => (await import('../features/erasure/erasure-page')).ErasurePage },
          },
          {
            path: 'audit-log',
            lazy: { Component: async () => (await import('../features/audit/audit-log-page')).AuditLogPage },
          },
          {
            path: 'account/password',
            lazy: {
              Component: async () => (await import('../features/auth/change-password-page')).ChangePasswordPage,
            },
          },
          {
            path: 'account/two-factor',
            lazy: {
              Component: async () => (await import('../features/auth/two-factor-page')).TwoFactorPage,
            },
          },
          {
            path: '*',
            lazy: { Component: async () => (await import('./layout/not-found-page')).NotFoundPage },
          },
        ],
      },
    ],
  },
]);
