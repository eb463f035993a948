import { z } from 'zod';
import {
  messageAnswer,
  meView,
  sessionAnswer,
  signedIn,
  userChange,
  userView,
} from './accounts.js';
import {
  aiSettingsInput,
  aiSettingsView,
  chatRequest,
  chatResponse,
  draftChange,
  draftInput,
  draftView,
} from './ai.js';
import { auditFilters, auditRecordView } from './audit.js';
import {
  assessmentQuery,
  assessmentView,
  overviewView as autoEnrolmentOverviewView,
  costView,
  payrollUploadListQuery,
  payrollUploadPage,
  payrollUploadView,
} from './auto-enrolment.js';
import {
  adjustmentInput,
  contributionInput,
  contributionView,
  payrollInput,
  payrollSaved,
  payrollView,
  periodTotals,
} from './contributions.js';
import { documentListQuery, documentUrlView, documentView } from './documents.js';
import {
  fundChange,
  fundChoiceInput,
  fundChoiceView,
  fundInput,
  fundListQuery,
  fundView,
} from './funds.js';
import {
  calendarEntryView,
  calendarQuery,
  complianceView,
  governanceDashboardView,
  historyEntryView,
  keyFunctionHolderChange,
  keyFunctionHolderInput,
  keyFunctionHolderView,
  oraReportChange,
  oraReportInput,
  oraReportView,
  policyApproval,
  policyChange,
  policyInput,
  policyView,
  registerListQuery,
  significantChangeInput,
  significantChangeView,
  trusteeChange,
  trusteeInput,
  trusteeView,
} from './governance.js';
import { importQuery, importSummary, importView } from './imports.js';
import {
  memberChange,
  memberExport,
  memberInput,
  memberListQuery,
  memberView,
  revealedPps,
} from './members.js';
import {
  brokerInput,
  brokerUserInput,
  brokerView,
  colleagueInput,
  employerInput,
  employerUserInput,
  employerView,
  schemeChange,
  schemeInput,
  schemeListQuery,
  schemeView,
} from './organisation.js';
import { dashboardView, overviewView } from './overview.js';
import { pageOf, pageQuery } from './pages.js';
import {
  contactChange,
  contactView,
  memberPageQuery,
  memberPageView,
  memberSummary,
} from './portal.js';
import { ingestAnswer, ingestRequest } from './rag.js';
import {
  codeBody,
  passkeyRegistered,
  recoveryCodesAnswer,
  secondFactorRequired,
  secondFactorStatus,
  totpSetup,
} from './second-factor.js';

/**
 * Every route of the API, in one table (docs/decisions/0113-one-route-table.md): its method, its
 * path as Fastify writes a pattern (`/api/members/:id`), and, where src/contracts holds them, the
 * schemas of its query, its body and its answer. The server registers each route with the method
 * and path written here, and the web UI builds every address it sends a request to from here, so
 * neither side writes a path of its own; a test holds the table and the routes the app registers
 * to each other, both ways.
 */

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchemas {
  /** The query string, as the route's `querystring` schema reads it. */
  readonly query?: z.ZodType;
  /** The JSON body, as the route's `body` schema reads it. */
  readonly body?: z.ZodType;
  /** The body of the success answer (`nothing` for a 204). */
  readonly answer?: z.ZodType;
}

export interface ApiRoute<M extends ApiMethod = ApiMethod, P extends string = string>
  extends RouteSchemas {
  readonly method: M;
  readonly path: P;
}

/** The answer of a route that answers 204 with no body: a deletion, a sign-out. */
export const nothing = z.undefined();

/** A password sign-in: the session, or the second step it needs first (docs/decisions/0110-second-factor.md). */
export const signInAnswer = z.union([signedIn, secondFactorRequired]);
export type SignInAnswer = z.infer<typeof signInAnswer>;

/** The options for the browser's passkey prompt, as SimpleWebAuthn writes them. */
export const passkeyOptions = z.record(z.string(), z.unknown());

/** The names of a path's parameters: `'id' | 'period'` of `/api/schemes/:id/payroll/:period`. */
export type PathParamName<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A value for each parameter of a path. */
export type PathParams<P extends string> = { readonly [Name in PathParamName<P>]: string };

type RoutePath = `/api/${string}`;

function route<const M extends ApiMethod, const P extends RoutePath, const S extends RouteSchemas>(
  method: M,
  path: P,
  schemas: S,
): ApiRoute<M, P> & S {
  return Object.freeze({ method, path, ...schemas });
}

/** A route with no schema in src/contracts. */
type Bare = Record<never, never>;

const get = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: S = {} as S,
) => route('GET', path, schemas);
const post = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: S = {} as S,
) => route('POST', path, schemas);
const put = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: S = {} as S,
) => route('PUT', path, schemas);
const patch = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: S = {} as S,
) => route('PATCH', path, schemas);
const remove = <const P extends RoutePath>(path: P) => route('DELETE', path, { answer: nothing });

/** The routes of one register of governance entries (docs/decisions/0059-governance-rules.md). */
function register<
  const Scheme extends RoutePath,
  const Entry extends RoutePath,
  const History extends RoutePath,
  const Q extends z.ZodType,
  const V extends z.ZodType,
  const I extends z.ZodType,
  const C extends z.ZodType,
>(
  paths: { ofScheme: Scheme; entry: Entry; history: History },
  schemas: { query: Q; view: V; input: I; change: C },
) {
  return {
    listOfScheme: get(paths.ofScheme, { query: schemas.query, answer: pageOf(schemas.view) }),
    create: post(paths.ofScheme, { body: schemas.input, answer: schemas.view }),
    get: get(paths.entry, { answer: schemas.view }),
    update: patch(paths.entry, { body: schemas.change, answer: schemas.view }),
    remove: remove(paths.entry),
    history: get(paths.history, { query: pageQuery, answer: pageOf(historyEntryView) }),
  };
}

export const apiRoutes = {
  /** Open without a session (service-spec §5.2): signing in and out, passwords. */
  auth: {
    signIn: post('/api/auth/signin', { answer: signInAnswer }),
    /** The same sign-in at the address Auth.js clients post credentials to. */
    signInCallback: post('/api/auth/callback/credentials', { answer: signInAnswer }),
    acceptInvitation: post('/api/auth/accept-invitation', { answer: signedIn }),
    changePassword: post('/api/auth/change-password', { answer: messageAnswer }),
    session: get('/api/auth/session', { answer: sessionAnswer }),
    signOut: post('/api/auth/signout', { answer: nothing }),
    forgotPassword: post('/api/auth/forgot-password', { answer: messageAnswer }),
    resetPassword: post('/api/auth/reset-password', { answer: messageAnswer }),
  },
  /** A second factor (docs/decisions/0110-second-factor.md, 0111-passkeys.md). */
  secondFactor: {
    /** The second step of a sign-in, with a code from the app or a recovery code. */
    verify: post('/api/auth/mfa/verify', { body: codeBody, answer: signedIn }),
    /** A signed-in person confirms it is them, for an action that needs a recent second factor. */
    confirm: post('/api/auth/mfa/confirm', { body: codeBody, answer: nothing }),
    status: get('/api/me/second-factor', { answer: secondFactorStatus }),
    startTotp: post('/api/auth/mfa/totp', { answer: totpSetup }),
    confirmTotp: post('/api/auth/mfa/totp/confirm', {
      body: codeBody,
      answer: recoveryCodesAnswer,
    }),
    removeTotp: remove('/api/auth/mfa/totp'),
    newRecoveryCodes: post('/api/auth/mfa/recovery-codes', { answer: recoveryCodesAnswer }),
    /** An administrator resets the lost factors of an account. */
    resetOfUser: remove('/api/users/:id/second-factor'),
    passkeyRegistrationOptions: post('/api/auth/passkeys/registration/options', {
      answer: passkeyOptions,
    }),
    registerPasskey: post('/api/auth/passkeys/registration', { answer: passkeyRegistered }),
    removePasskey: remove('/api/auth/passkeys/:id'),
    passkeyAuthenticationOptions: post('/api/auth/passkeys/authentication/options', {
      answer: passkeyOptions,
    }),
    passkeyAuthentication: post('/api/auth/passkeys/authentication', { answer: signedIn }),
  },
  health: {
    live: get('/api/health/live'),
    db: get('/api/health/db'),
    ready: get('/api/health/ready'),
    /** Prometheus text, behind METRICS_SECRET. */
    metrics: get('/api/health/metrics'),
  },
  brokers: {
    create: post('/api/brokers', { body: brokerInput, answer: brokerView }),
    list: get('/api/brokers', { query: pageQuery, answer: pageOf(brokerView) }),
    get: get('/api/brokers/:brokerId', { answer: brokerView }),
    update: patch('/api/brokers/:brokerId', { body: brokerInput, answer: brokerView }),
    createUser: post('/api/brokers/:brokerId/users', { body: brokerUserInput, answer: userView }),
    listUsers: get('/api/brokers/:brokerId/users', { query: pageQuery, answer: pageOf(userView) }),
  },
  employers: {
    create: post('/api/employers', { body: employerInput, answer: employerView }),
    list: get('/api/employers', { query: pageQuery, answer: pageOf(employerView) }),
    get: get('/api/employers/:id', { answer: employerView }),
    update: patch('/api/employers/:id', { body: employerInput, answer: employerView }),
    remove: remove('/api/employers/:id'),
    createUser: post('/api/employers/:id/users', { body: employerUserInput, answer: userView }),
    listUsers: get('/api/employers/:id/users', { query: pageQuery, answer: pageOf(userView) }),
  },
  users: {
    /** A colleague in one's own firm. */
    invite: post('/api/users', { body: colleagueInput, answer: userView }),
    resendInvitation: post('/api/users/:id/invitation', { answer: userView }),
    list: get('/api/users', { query: pageQuery, answer: pageOf(userView) }),
    get: get('/api/users/:id', { answer: userView }),
    update: patch('/api/users/:id', { body: userChange, answer: userView }),
    me: get('/api/me', { answer: meView }),
  },
  schemes: {
    create: post('/api/schemes', { body: schemeInput, answer: schemeView }),
    list: get('/api/schemes', { query: schemeListQuery, answer: pageOf(schemeView) }),
    get: get('/api/schemes/:id', { answer: schemeView }),
    update: patch('/api/schemes/:id', { body: schemeChange, answer: schemeView }),
    remove: remove('/api/schemes/:id'),
  },
  members: {
    create: post('/api/schemes/:id/members', { body: memberInput, answer: memberView }),
    listOfScheme: get('/api/schemes/:id/members', {
      query: memberListQuery,
      answer: pageOf(memberView),
    }),
    get: get('/api/members/:id', { answer: memberView }),
    update: patch('/api/members/:id', { body: memberChange, answer: memberView }),
    remove: remove('/api/members/:id'),
    revealPps: post('/api/members/:id/pps/reveal', { answer: revealedPps }),
    /** Everything held about a member, as JSON (GDPR access and portability). */
    export: get('/api/members/:id/export', { answer: memberExport }),
    /** A member's own pension at a glance (the portal). */
    summary: get('/api/members/:id/summary', { answer: memberSummary }),
    /** What the member page shows, in one request. */
    page: get('/api/members/:id/page', { query: memberPageQuery, answer: memberPageView }),
    updateContact: patch('/api/members/:id/contact', { body: contactChange, answer: contactView }),
    /** The member's own data as a CSV attachment. */
    exportCsv: get('/api/members/:id/export.csv'),
  },
  contributions: {
    listOfMember: get('/api/members/:id/contributions', { answer: pageOf(contributionView) }),
    create: post('/api/members/:id/contributions', {
      body: contributionInput,
      answer: contributionView,
    }),
    adjust: post('/api/contributions/:id/adjustments', {
      body: adjustmentInput,
      answer: contributionView,
    }),
  },
  /** A scheme's pay periods as a grid (docs/decisions/0048-contributions-as-a-payroll-grid.md). */
  payroll: {
    get: get('/api/schemes/:id/payroll/:period', { answer: payrollView }),
    save: put('/api/schemes/:id/payroll/:period', { body: payrollInput, answer: payrollSaved }),
    periods: get('/api/schemes/:id/contribution-periods', { answer: periodTotals }),
  },
  funds: {
    listOfScheme: get('/api/schemes/:id/funds', { query: fundListQuery, answer: pageOf(fundView) }),
    create: post('/api/schemes/:id/funds', { body: fundInput, answer: fundView }),
    update: patch('/api/funds/:id', { body: fundChange, answer: fundView }),
    choices: get('/api/members/:id/fund-choices', {
      query: fundListQuery,
      answer: pageOf(fundChoiceView),
    }),
    setChoices: put('/api/members/:id/fund-choices', {
      body: fundChoiceInput,
      answer: fundChoiceView,
    }),
  },
  overview: {
    get: get('/api/overview', { answer: overviewView }),
    /** What the firm's dashboard shows, in one request. */
    dashboard: get('/api/overview/dashboard', { answer: dashboardView }),
  },
  /** CSV imports into a scheme, one route a kind of import (docs/imports.md). */
  imports: {
    members: post('/api/schemes/:id/members/import', { query: importQuery, answer: importView }),
    contributions: post('/api/schemes/:id/contributions/import', {
      query: importQuery,
      answer: importView,
    }),
    listOfScheme: get('/api/schemes/:id/imports', {
      query: pageQuery,
      answer: pageOf(importSummary),
    }),
    get: get('/api/imports/:id', { answer: importView }),
  },
  trustees: register(
    {
      ofScheme: '/api/schemes/:id/trustees',
      entry: '/api/trustees/:id',
      history: '/api/trustees/:id/history',
    },
    { query: registerListQuery, view: trusteeView, input: trusteeInput, change: trusteeChange },
  ),
  keyFunctionHolders: register(
    {
      ofScheme: '/api/schemes/:id/key-function-holders',
      entry: '/api/key-function-holders/:id',
      history: '/api/key-function-holders/:id/history',
    },
    {
      query: registerListQuery,
      view: keyFunctionHolderView,
      input: keyFunctionHolderInput,
      change: keyFunctionHolderChange,
    },
  ),
  policies: {
    ...register(
      {
        ofScheme: '/api/schemes/:id/policies',
        entry: '/api/policies/:id',
        history: '/api/policies/:id/history',
      },
      { query: registerListQuery, view: policyView, input: policyInput, change: policyChange },
    ),
    approve: post('/api/policies/:id/approve', { body: policyApproval, answer: policyView }),
    significantChange: post('/api/policies/:id/significant-change', {
      body: significantChangeInput,
      answer: significantChangeView,
    }),
  },
  significantChanges: {
    listOfScheme: get('/api/schemes/:id/significant-changes', {
      query: pageQuery,
      answer: pageOf(significantChangeView),
    }),
    /** A change in the scheme's risk profile, which brings its next own-risk assessment forward. */
    riskProfile: post('/api/schemes/:id/risk-profile-changes', {
      body: significantChangeInput,
      answer: significantChangeView,
    }),
  },
  oraReports: register(
    {
      ofScheme: '/api/schemes/:id/ora-reports',
      entry: '/api/ora-reports/:id',
      history: '/api/ora-reports/:id/history',
    },
    { query: pageQuery, view: oraReportView, input: oraReportInput, change: oraReportChange },
  ),
  compliance: {
    ofScheme: get('/api/schemes/:id/compliance', { answer: complianceView }),
    calendar: get('/api/compliance/calendar', {
      query: calendarQuery,
      answer: pageOf(calendarEntryView),
    }),
    dashboard: get('/api/compliance/dashboard', { answer: governanceDashboardView }),
  },
  /** Automatic enrolment readiness (docs/decisions/0068-auto-enrolment-readiness.md). */
  autoEnrolment: {
    importPayroll: post('/api/employers/:id/payroll/import', {
      query: importQuery,
      answer: payrollUploadView,
    }),
    payrollUploads: get('/api/employers/:id/payroll/imports', {
      query: payrollUploadListQuery,
      answer: payrollUploadPage,
    }),
    payrollUpload: get('/api/employers/:id/payroll/imports/:importId', {
      answer: payrollUploadView,
    }),
    removePayrollUpload: remove('/api/employers/:id/payroll/imports/:importId'),
    assessment: get('/api/employers/:id/auto-enrolment', {
      query: assessmentQuery,
      answer: assessmentView,
    }),
    /** The assessment as a CSV attachment. */
    exportCsv: get('/api/employers/:id/auto-enrolment/export', { query: assessmentQuery }),
    summaryPdf: get('/api/employers/:id/auto-enrolment/summary.pdf', { query: assessmentQuery }),
    cost: get('/api/employers/:id/auto-enrolment/cost', {
      query: assessmentQuery,
      answer: costView,
    }),
    overview: get('/api/auto-enrolment/overview', {
      query: assessmentQuery,
      answer: autoEnrolmentOverviewView,
    }),
  },
  audit: {
    list: get('/api/audit', {
      query: pageQuery.extend(auditFilters.shape),
      answer: pageOf(auditRecordView),
    }),
    exportCsv: get('/api/audit/export.csv', { query: auditFilters }),
  },
  /** The document vault (docs/decisions/0062-document-vault.md). */
  documents: {
    /** A multipart form: the fields, then the file. */
    upload: post('/api/schemes/:id/documents', { answer: documentView }),
    listOfScheme: get('/api/schemes/:id/documents', {
      query: documentListQuery,
      answer: pageOf(documentView),
    }),
    get: get('/api/documents/:id', { answer: documentView }),
    remove: remove('/api/documents/:id'),
    /** A signed address of the file, good for minutes (docs/decisions/0099-signed-urls-bound-to-the-session.md). */
    url: get('/api/documents/:id/url', { answer: documentUrlView }),
    /** The scheme's governance evidence as a ZIP attachment. */
    evidencePack: get('/api/schemes/:id/evidence-pack'),
  },
  /** AI (docs/decisions/0066-ai-provider-guard-and-chat.md). */
  ai: {
    /** JSON, or server-sent events when asked for `text/event-stream`. */
    chat: post('/api/ai/chat', { body: chatRequest, answer: chatResponse }),
    settings: get('/api/tenant/ai-settings', { answer: aiSettingsView }),
    updateSettings: put('/api/tenant/ai-settings', {
      body: aiSettingsInput,
      answer: aiSettingsView,
    }),
  },
  drafts: {
    create: post('/api/ai/drafts', { body: draftInput, answer: draftView }),
    listOfScheme: get('/api/schemes/:id/ai/drafts', {
      query: pageQuery,
      answer: pageOf(draftView),
    }),
    get: get('/api/ai/drafts/:id', { answer: draftView }),
    update: patch('/api/ai/drafts/:id', { body: draftChange, answer: draftView }),
    review: post('/api/ai/drafts/:id/review', { answer: draftView }),
    approve: post('/api/ai/drafts/:id/approve', { answer: draftView }),
    issue: post('/api/ai/drafts/:id/issue', { answer: draftView }),
  },
  /** Called by machines with a shared secret (docs/decisions/0096-bearer-prefixes-and-parser-refusals.md). */
  machines: {
    /** A scheduled job (docs/decisions/0057-scheduled-jobs.md). */
    cron: post('/api/cron/:job'),
    /** The regulatory corpus (docs/decisions/0069-regulatory-corpus-and-retrieval.md). */
    ragIngest: post('/api/rag/ingest', { body: ingestRequest, answer: ingestAnswer }),
  },
} as const;

/** Every route of the table with its name (`members.get`), in the table's order. */
export function listApiRoutes(): Array<{ name: string; route: ApiRoute }> {
  return Object.entries(apiRoutes).flatMap(([group, routes]) =>
    Object.entries(routes as Record<string, ApiRoute>).map(([name, entry]) => ({
      name: `${group}.${name}`,
      route: entry,
    })),
  );
}
