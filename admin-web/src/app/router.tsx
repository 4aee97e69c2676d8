// Every route of the console. Pages live in src/features/<feature>/; the layouts that join them
// (the shell, a site's and a form's sub-navigation) live in src/app/layout/.
import { Navigate, createBrowserRouter } from 'react-router';
import { ApiViewPage } from '../features/api-view/api-view-page';
import { AuditLogPage } from '../features/audit/audit-log-page';
import { ChangePasswordPage } from '../features/auth/change-password-page';
import { ErasurePage } from '../features/erasure/erasure-page';
import { SignInPage } from '../features/auth/sign-in-page';
import { FormSettingsPage } from '../features/forms/form-settings-page';
import { FormsPage } from '../features/forms/forms-page';
import { OverviewPage } from '../features/overview/overview-page';
import { SpamPage } from '../features/spam/spam-page';
import { SitesPage } from '../features/sites/sites-page';
import { SubmissionDetailPage } from '../features/submissions/submission-detail-page';
import { SubmissionsPage } from '../features/submissions/submissions-page';
import { TokensPage } from '../features/tokens/tokens-page';
import { WebhooksPage } from '../features/webhooks/webhooks-page';
import { AppLayout } from './layout/app-layout';
import { FormLayout } from './layout/form-layout';
import { NotFoundPage } from './layout/not-found-page';
import { SiteLayout } from './layout/site-layout';
import { RequireSession } from './require-session';
import { SessionRoot } from './session';
import { paths } from '../lib/paths';

export const router = createBrowserRouter([
  {
    element: <SessionRoot />,
    children: [
      { path: 'sign-in', element: <SignInPage /> },
      {
        element: (
          <RequireSession>
            <AppLayout />
          </RequireSession>
        ),
        children: [
          { index: true, element: <Navigate to={paths.sites} replace /> },
          { path: 'overview', element: <OverviewPage /> },
          { path: 'sites', element: <SitesPage /> },
          {
            path: 'sites/:siteId',
            element: <SiteLayout />,
            children: [
              { index: true, element: <Navigate to="forms" replace /> },
              { path: 'forms', element: <FormsPage /> },
              { path: 'api', element: <ApiViewPage /> },
              {
                path: 'forms/:formId',
                element: <FormLayout />,
                children: [
                  { index: true, element: <SubmissionsPage /> },
                  { path: 'submissions/:submissionId', element: <SubmissionDetailPage /> },
                  { path: 'webhooks', element: <WebhooksPage /> },
                  { path: 'spam', element: <SpamPage /> },
                  { path: 'settings', element: <FormSettingsPage /> },
                ],
              },
            ],
          },
          { path: 'api-tokens', element: <TokensPage /> },
          { path: 'erasure', element: <ErasurePage /> },
          { path: 'audit-log', element: <AuditLogPage /> },
          { path: 'account/password', element: <ChangePasswordPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
