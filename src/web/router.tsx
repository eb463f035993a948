import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import type { Access } from './auth/can';
import { safeReturnPath } from './auth/return-path';
import { AccessGate } from './components/AccessGate';
import { AppLayout } from './layout/AppLayout';
import { PAGES } from './layout/pages';
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

/**
 * A signed-in page: its own chunk, shown only behind the gate of its PAGES entry, so no page is
 * routed without the check of whom it is for
 * (docs/decisions/0153-firm-records-not-the-platforms-pages.md). The router loads the chunk
 * before it shows the route, as for any lazy page; the gate decides whether what it holds is
 * rendered.
 */
const page = (
  path: string,
  access: Access,
  load: Parameters<typeof lazyRouteComponent>[0],
  name: string,
) => {
  const Lazy = lazyRouteComponent(load, name);
  // biome-ignore lint/correctness/noComponentHookFactories: page() runs once a route as this module loads, so each page's component is made once and never remade.
  const Gated = () => (
    <AccessGate access={access}>
      <Lazy />
    </AccessGate>
  );
  // lazyRouteComponent drops its preload once the chunk is in; the gated page reads it as it is.
  Object.defineProperty(Gated, 'preload', { get: () => Lazy.preload });
  return createRoute({ getParentRoute: () => signedIn, path, component: Gated });
};

const routeTree = rootRoute.addChildren([
  signIn,
  forgotPassword,
  resetPassword,
  acceptInvitation,
  signedIn.addChildren([
    createRoute({ getParentRoute: () => signedIn, path: '/', component: HomeRedirect }),
    page(
      '/api-reference',
      PAGES.apiReference,
      () => import('./api-reference/ApiReferencePage'),
      'ApiReferencePage',
    ),
    page('/account', PAGES.account, () => import('./pages/account/AccountPage'), 'AccountPage'),
    page(
      '/dashboard',
      PAGES.dashboard,
      () => import('./pages/dashboard/DashboardPage'),
      'DashboardPage',
    ),
    page('/home', PAGES.home, () => import('./pages/home/HomePage'), 'HomePage'),
    page('/brokers', PAGES.brokers, () => import('./pages/brokers/BrokersPage'), 'BrokersPage'),
    page(
      '/brokers/$brokerId',
      PAGES.broker,
      () => import('./pages/brokers/BrokerPage'),
      'BrokerPage',
    ),
    page(
      '/employers',
      PAGES.employers,
      () => import('./pages/employers/EmployersPage'),
      'EmployersPage',
    ),
    page(
      '/employers/$employerId',
      PAGES.employer,
      () => import('./pages/employers/EmployerPage'),
      'EmployerPage',
    ),
    page(
      '/employers/$employerId/auto-enrolment',
      PAGES.autoEnrolment,
      () => import('./pages/auto-enrolment/AutoEnrolmentPage'),
      'AutoEnrolmentPage',
    ),
    page(
      '/employers/$employerId/auto-enrolment/upload',
      PAGES.autoEnrolmentUpload,
      () => import('./pages/auto-enrolment/PayrollUploadPage'),
      'PayrollUploadPage',
    ),
    page('/schemes', PAGES.schemes, () => import('./pages/schemes/SchemesPage'), 'SchemesPage'),
    page(
      '/schemes/$schemeId',
      PAGES.scheme,
      () => import('./pages/schemes/SchemePage'),
      'SchemePage',
    ),
    page(
      '/schemes/$schemeId/import',
      PAGES.schemeImport,
      () => import('./pages/imports/ImportWizardPage'),
      'ImportWizardPage',
    ),
    page(
      '/schemes/$schemeId/payroll/$period',
      PAGES.payrollGrid,
      () => import('./pages/schemes/PayrollGridPage'),
      'PayrollGridPage',
    ),
    page(
      '/statement-runs/$runId',
      PAGES.statementRun,
      () => import('./pages/statements/StatementRunPage'),
      'StatementRunPage',
    ),
    page(
      '/members/$memberId',
      PAGES.member,
      () => import('./pages/members/MemberPage'),
      'MemberPage',
    ),
    page(
      '/governance',
      PAGES.governance,
      () => import('./pages/governance/GovernanceDashboardPage'),
      'GovernanceDashboardPage',
    ),
    page(
      '/compliance-calendar',
      PAGES.complianceCalendar,
      () => import('./pages/governance/ComplianceCalendarPage'),
      'ComplianceCalendarPage',
    ),
    page(
      '/data-breaches',
      PAGES.dataBreaches,
      () => import('./pages/data-breaches/DataBreachesPage'),
      'DataBreachesPage',
    ),
    page(
      '/ict-incidents',
      PAGES.ictIncidents,
      () => import('./pages/ict-incidents/IctIncidentsPage'),
      'IctIncidentsPage',
    ),
    page(
      '/ict-providers',
      PAGES.ictProviders,
      () => import('./pages/ict-providers/IctProvidersPage'),
      'IctProvidersPage',
    ),
    page(
      '/data-requests',
      PAGES.dataRequests,
      () => import('./pages/data-requests/DataRequestsPage'),
      'DataRequestsPage',
    ),
    page('/ask', PAGES.ask, () => import('./pages/ai/AskPage'), 'AskPage'),
    page('/drafts/$draftId', PAGES.draft, () => import('./pages/ai/DraftPage'), 'DraftPage'),
    page(
      '/ai-settings',
      PAGES.aiSettings,
      () => import('./pages/ai/AiSettingsPage'),
      'AiSettingsPage',
    ),
    page('/users', PAGES.users, () => import('./pages/users/UsersPage'), 'UsersPage'),
    page('/audit', PAGES.audit, () => import('./pages/audit/AuditPage'), 'AuditPage'),
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
