import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import { safeReturnPath } from './auth/return-path';
import { AppLayout } from './layout/AppLayout';
import { AcceptInvitationPage } from './pages/auth/AcceptInvitationPage';
import { ForgotPasswordPage } from './pages/auth/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/auth/ResetPasswordPage';
import { SignInPage } from './pages/auth/SignInPage';
import { HomeRedirect } from './pages/common/HomeRedirect';
import { NotFoundPage } from './pages/common/NotFoundPage';

/**
 * Every screen of the UI. Signed-out pages are in the first bundle; each signed-in page is its
 * own chunk, loaded when first visited, so the first load stays small.
 */
const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFoundPage });

const signIn = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signin',
  component: SignInPage,
  validateSearch: (search: Record<string, unknown>): { next?: string } => {
    const next = safeReturnPath(search.next);
    return next ? { next } : {};
  },
});
const forgotPassword = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: ForgotPasswordPage,
});
const resetPassword = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  component: ResetPasswordPage,
});

const acceptInvitation = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept-invitation',
  component: AcceptInvitationPage,
});

/** Everything behind sign-in shares the layout, which checks the session. */
const signedIn = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  component: AppLayout,
});
const page = (path: string, load: Parameters<typeof lazyRouteComponent>[0], name: string) =>
  createRoute({ getParentRoute: () => signedIn, path, component: lazyRouteComponent(load, name) });

const routeTree = rootRoute.addChildren([
  signIn,
  forgotPassword,
  resetPassword,
  acceptInvitation,
  signedIn.addChildren([
    createRoute({ getParentRoute: () => signedIn, path: '/', component: HomeRedirect }),
    page('/api-reference', () => import('./api-reference/ApiReferencePage'), 'ApiReferencePage'),
    page('/account', () => import('./pages/account/AccountPage'), 'AccountPage'),
    page('/dashboard', () => import('./pages/dashboard/DashboardPage'), 'DashboardPage'),
    page('/home', () => import('./pages/home/HomePage'), 'HomePage'),
    page('/brokers', () => import('./pages/brokers/BrokersPage'), 'BrokersPage'),
    page('/brokers/$brokerId', () => import('./pages/brokers/BrokerPage'), 'BrokerPage'),
    page('/employers', () => import('./pages/employers/EmployersPage'), 'EmployersPage'),
    page('/employers/$employerId', () => import('./pages/employers/EmployerPage'), 'EmployerPage'),
    page(
      '/employers/$employerId/auto-enrolment',
      () => import('./pages/auto-enrolment/AutoEnrolmentPage'),
      'AutoEnrolmentPage',
    ),
    page(
      '/employers/$employerId/auto-enrolment/upload',
      () => import('./pages/auto-enrolment/PayrollUploadPage'),
      'PayrollUploadPage',
    ),
    page('/schemes', () => import('./pages/schemes/SchemesPage'), 'SchemesPage'),
    page('/schemes/$schemeId', () => import('./pages/schemes/SchemePage'), 'SchemePage'),
    page(
      '/schemes/$schemeId/import',
      () => import('./pages/imports/ImportWizardPage'),
      'ImportWizardPage',
    ),
    page(
      '/schemes/$schemeId/payroll/$period',
      () => import('./pages/schemes/PayrollGridPage'),
      'PayrollGridPage',
    ),
    page(
      '/statement-runs/$runId',
      () => import('./pages/statements/StatementRunPage'),
      'StatementRunPage',
    ),
    page('/members/$memberId', () => import('./pages/members/MemberPage'), 'MemberPage'),
    page(
      '/governance',
      () => import('./pages/governance/GovernanceDashboardPage'),
      'GovernanceDashboardPage',
    ),
    page(
      '/compliance-calendar',
      () => import('./pages/governance/ComplianceCalendarPage'),
      'ComplianceCalendarPage',
    ),
    page(
      '/data-breaches',
      () => import('./pages/data-breaches/DataBreachesPage'),
      'DataBreachesPage',
    ),
    page(
      '/ict-incidents',
      () => import('./pages/ict-incidents/IctIncidentsPage'),
      'IctIncidentsPage',
    ),
    page(
      '/ict-providers',
      () => import('./pages/ict-providers/IctProvidersPage'),
      'IctProvidersPage',
    ),
    page(
      '/data-requests',
      () => import('./pages/data-requests/DataRequestsPage'),
      'DataRequestsPage',
    ),
    page('/ask', () => import('./pages/ai/AskPage'), 'AskPage'),
    page('/drafts/$draftId', () => import('./pages/ai/DraftPage'), 'DraftPage'),
    page('/ai-settings', () => import('./pages/ai/AiSettingsPage'), 'AiSettingsPage'),
    page('/users', () => import('./pages/users/UsersPage'), 'UsersPage'),
    page('/audit', () => import('./pages/audit/AuditPage'), 'AuditPage'),
    // Any other address: "Not found" inside the signed-in layout, with its menu and header, so a
    // mistyped or stale link leaves the person somewhere they can go on from (a signed-out person
    // signs in first, as for any page behind sign-in, and comes back to it).
    createRoute({ getParentRoute: () => signedIn, path: '$', component: NotFoundPage }),
  ]),
]);

export const router = createRouter({ routeTree, defaultNotFoundComponent: NotFoundPage });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
