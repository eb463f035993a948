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
  /** What a client sends to the route, as an example (see `RouteExample`). */
  readonly example?: RouteExample;
}

/**
 * A request the route accepts, as an API client would write it: shown in the API reference, and
 * sent by the suites that try every route (the tenant-isolation matrix, the fuzz and
 * control-character suites), so a new route is tried by them from this one declaration. Where the
 * body names another record it writes an id of `EXAMPLE_IDS`, which those suites replace by their
 * own records' ids; a field that must be unique (an e-mail address, a PPS number, a fund's name, a
 * pay period) they replace by a fresh value.
 */
export interface RouteExample {
  /** The query string the route is tried with. */
  readonly query?: Readonly<Record<string, string>>;
  /** A JSON body the route accepts. */
  readonly body?: unknown;
}

/** The ids an example body writes for the records it names. */
export const EXAMPLE_IDS = {
  employer: 'k1employer0example000001',
  scheme: 'k1scheme0example00000001',
  member: 'k1member0example00000001',
  fund: 'k1fund0example0000000001',
} as const;

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

/** The schemas with the example's body held to the body schema's input type. */
type Checked<S extends RouteSchemas> = S & {
  readonly example?: {
    readonly body?: S['body'] extends z.ZodType ? z.input<S['body']> : unknown;
  };
};

function route<const M extends ApiMethod, const P extends RoutePath, const S extends RouteSchemas>(
  method: M,
  path: P,
  schemas: Checked<S>,
): ApiRoute<M, P> & S {
  return Object.freeze({ method, path, ...schemas });
}

/** A route with no schema in src/contracts. */
type Bare = Record<never, never>;

const get = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
) => route('GET', path, schemas);
const post = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
) => route('POST', path, schemas);
const put = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
) => route('PUT', path, schemas);
const patch = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
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
  examples: { create: z.input<I>; update: z.input<C> },
) {
  return {
    listOfScheme: get(paths.ofScheme, { query: schemas.query, answer: pageOf(schemas.view) }),
    create: post(paths.ofScheme, {
      body: schemas.input,
      answer: schemas.view,
      example: { body: examples.create },
    }),
    get: get(paths.entry, { answer: schemas.view }),
    update: patch(paths.entry, {
      body: schemas.change,
      answer: schemas.view,
      example: { body: examples.update },
    }),
    remove: remove(paths.entry),
    history: get(paths.history, { query: pageQuery, answer: pageOf(historyEntryView) }),
  };
}

export const apiRoutes = {
  /** Open without a session (service-spec §5.2): signing in and out, passwords. */
  auth: {
    signIn: post('/api/auth/signin', {
      answer: signInAnswer,
      example: { body: { email: 'aoife@example.ie', password: 'correct horse battery staple' } },
    }),
    /** The same sign-in at the address Auth.js clients post credentials to. */
    signInCallback: post('/api/auth/callback/credentials', {
      answer: signInAnswer,
      example: { body: { email: 'aoife@example.ie', password: 'correct horse battery staple' } },
    }),
    acceptInvitation: post('/api/auth/accept-invitation', {
      answer: signedIn,
      example: { body: { token: 'x'.repeat(43), password: 'a new long passphrase' } },
    }),
    changePassword: post('/api/auth/change-password', {
      answer: messageAnswer,
      example: {
        body: { currentPassword: 'the passphrase in use', newPassword: 'a new long passphrase' },
      },
    }),
    session: get('/api/auth/session', { answer: sessionAnswer }),
    signOut: post('/api/auth/signout', { answer: nothing }),
    forgotPassword: post('/api/auth/forgot-password', {
      answer: messageAnswer,
      example: { body: { email: 'aoife@example.ie' } },
    }),
    resetPassword: post('/api/auth/reset-password', {
      answer: messageAnswer,
      example: { body: { token: 'x'.repeat(43), password: 'a new long passphrase' } },
    }),
  },
  /** A second factor (docs/decisions/0110-second-factor.md, 0111-passkeys.md). */
  secondFactor: {
    /** The second step of a sign-in, with a code from the app or a recovery code. */
    verify: post('/api/auth/mfa/verify', {
      body: codeBody,
      answer: signedIn,
      example: { body: { code: '123456' } },
    }),
    /** A signed-in person confirms it is them, for an action that needs a recent second factor. */
    confirm: post('/api/auth/mfa/confirm', {
      body: codeBody,
      answer: nothing,
      example: { body: { code: '123456' } },
    }),
    status: get('/api/me/second-factor', { answer: secondFactorStatus }),
    startTotp: post('/api/auth/mfa/totp', { answer: totpSetup }),
    confirmTotp: post('/api/auth/mfa/totp/confirm', {
      body: codeBody,
      answer: recoveryCodesAnswer,
      example: { body: { code: '123456' } },
    }),
    removeTotp: remove('/api/auth/mfa/totp'),
    newRecoveryCodes: post('/api/auth/mfa/recovery-codes', { answer: recoveryCodesAnswer }),
    /** An administrator resets the lost factors of an account. */
    resetOfUser: remove('/api/users/:id/second-factor'),
    passkeyRegistrationOptions: post('/api/auth/passkeys/registration/options', {
      answer: passkeyOptions,
    }),
    registerPasskey: post('/api/auth/passkeys/registration', {
      answer: passkeyRegistered,
      example: {
        body: {
          name: 'Work laptop',
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            clientExtensionResults: {},
            response: {
              clientDataJSON: 'AAAA',
              attestationObject: 'AAAA',
              transports: ['internal'],
            },
          },
        },
      },
    }),
    removePasskey: remove('/api/auth/passkeys/:id'),
    passkeyAuthenticationOptions: post('/api/auth/passkeys/authentication/options', {
      answer: passkeyOptions,
    }),
    passkeyAuthentication: post('/api/auth/passkeys/authentication', {
      answer: signedIn,
      example: {
        body: {
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            clientExtensionResults: {},
            response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
          },
        },
      },
    }),
  },
  health: {
    live: get('/api/health/live'),
    db: get('/api/health/db'),
    ready: get('/api/health/ready'),
    /** Prometheus text, behind METRICS_SECRET. */
    metrics: get('/api/health/metrics'),
  },
  brokers: {
    create: post('/api/brokers', {
      body: brokerInput,
      answer: brokerView,
      example: { body: { name: 'Western Pension Brokers' } },
    }),
    list: get('/api/brokers', { query: pageQuery, answer: pageOf(brokerView) }),
    get: get('/api/brokers/:brokerId', { answer: brokerView }),
    update: patch('/api/brokers/:brokerId', {
      body: brokerInput,
      answer: brokerView,
      example: { body: { name: 'Western Pension Brokers Ltd' } },
    }),
    createUser: post('/api/brokers/:brokerId/users', {
      body: brokerUserInput,
      answer: userView,
      example: {
        body: {
          email: 'niamh.byrne@example.ie',
          name: 'Niamh Byrne',
          role: 'BrokerUser',
          password: 'a long enough passphrase',
        },
      },
    }),
    listUsers: get('/api/brokers/:brokerId/users', { query: pageQuery, answer: pageOf(userView) }),
  },
  employers: {
    create: post('/api/employers', {
      body: employerInput,
      answer: employerView,
      example: { body: { name: 'Galway Engineering Ltd' } },
    }),
    list: get('/api/employers', { query: pageQuery, answer: pageOf(employerView) }),
    get: get('/api/employers/:id', { answer: employerView }),
    update: patch('/api/employers/:id', {
      body: employerInput,
      answer: employerView,
      example: { body: { name: 'Galway Engineering DAC' } },
    }),
    remove: remove('/api/employers/:id'),
    createUser: post('/api/employers/:id/users', {
      body: employerUserInput,
      answer: userView,
      example: { body: { email: 'hr@example.ie', name: 'Seán Kelly', role: 'EmployerUser' } },
    }),
    listUsers: get('/api/employers/:id/users', { query: pageQuery, answer: pageOf(userView) }),
  },
  users: {
    /** A colleague in one's own firm. */
    invite: post('/api/users', {
      body: colleagueInput,
      answer: userView,
      example: { body: { email: 'colleague@example.ie', name: 'Ciara Doyle', role: 'BrokerUser' } },
    }),
    resendInvitation: post('/api/users/:id/invitation', { answer: userView }),
    list: get('/api/users', { query: pageQuery, answer: pageOf(userView) }),
    get: get('/api/users/:id', { answer: userView }),
    update: patch('/api/users/:id', {
      body: userChange,
      answer: userView,
      example: { body: { name: 'Ciara Doyle-Walsh' } },
    }),
    me: get('/api/me', { answer: meView }),
  },
  schemes: {
    create: post('/api/schemes', {
      body: schemeInput,
      answer: schemeView,
      example: {
        body: { employerId: EXAMPLE_IDS.employer, name: 'Staff Pension Scheme', type: 'DC' },
      },
    }),
    list: get('/api/schemes', { query: schemeListQuery, answer: pageOf(schemeView) }),
    get: get('/api/schemes/:id', { answer: schemeView }),
    update: patch('/api/schemes/:id', {
      body: schemeChange,
      answer: schemeView,
      example: { body: { name: 'Staff Pension Plan' } },
    }),
    remove: remove('/api/schemes/:id'),
  },
  members: {
    create: post('/api/schemes/:id/members', {
      body: memberInput,
      answer: memberView,
      example: {
        body: {
          firstName: 'Aoife',
          lastName: 'Murphy',
          dateOfBirth: '1985-04-12',
          dateJoined: '2015-09-01',
          salaryCents: 5_500_000,
          ppsNumber: '1234567TW',
          email: 'aoife.murphy@example.ie',
          address: '1 Main Street\nGalway',
        },
      },
    }),
    listOfScheme: get('/api/schemes/:id/members', {
      query: memberListQuery,
      answer: pageOf(memberView),
    }),
    get: get('/api/members/:id', { answer: memberView }),
    update: patch('/api/members/:id', {
      body: memberChange,
      answer: memberView,
      example: { body: { address: '3 New Road\nCork' } },
    }),
    remove: remove('/api/members/:id'),
    revealPps: post('/api/members/:id/pps/reveal', { answer: revealedPps }),
    /** Everything held about a member, as JSON (GDPR access and portability). */
    export: get('/api/members/:id/export', { answer: memberExport }),
    /** A member's own pension at a glance (the portal). */
    summary: get('/api/members/:id/summary', { answer: memberSummary }),
    /** What the member page shows, in one request. */
    page: get('/api/members/:id/page', {
      query: memberPageQuery,
      answer: memberPageView,
      example: { query: { chartFrom: '2024-01' } },
    }),
    updateContact: patch('/api/members/:id/contact', {
      body: contactChange,
      answer: contactView,
      example: { body: { address: '4 Quay Street\nGalway' } },
    }),
    /** The member's own data as a CSV attachment. */
    exportCsv: get('/api/members/:id/export.csv'),
  },
  contributions: {
    listOfMember: get('/api/members/:id/contributions', { answer: pageOf(contributionView) }),
    create: post('/api/members/:id/contributions', {
      body: contributionInput,
      answer: contributionView,
      example: { body: { period: '2026-02', kind: 'employee', amountCents: 12_345 } },
    }),
    adjust: post('/api/contributions/:id/adjustments', {
      body: adjustmentInput,
      answer: contributionView,
      example: { body: { deltaCents: 1, reason: 'Rounding in the payroll file' } },
    }),
  },
  /** A scheme's pay periods as a grid (docs/decisions/0048-contributions-as-a-payroll-grid.md). */
  payroll: {
    get: get('/api/schemes/:id/payroll/:period', { answer: payrollView }),
    save: put('/api/schemes/:id/payroll/:period', {
      body: payrollInput,
      answer: payrollSaved,
      example: {
        body: {
          rows: [{ memberId: EXAMPLE_IDS.member, employeeCents: 20_000, employerCents: 30_000 }],
          reason: 'Payroll run corrected',
        },
      },
    }),
    periods: get('/api/schemes/:id/contribution-periods', { answer: periodTotals }),
  },
  funds: {
    listOfScheme: get('/api/schemes/:id/funds', { query: fundListQuery, answer: pageOf(fundView) }),
    create: post('/api/schemes/:id/funds', {
      body: fundInput,
      answer: fundView,
      example: { body: { name: 'Global Equity Fund', isin: 'IE00B4L5Y983' } },
    }),
    update: patch('/api/funds/:id', {
      body: fundChange,
      answer: fundView,
      example: { body: { isin: 'IE00B4L5Y983' } },
    }),
    choices: get('/api/members/:id/fund-choices', {
      query: fundListQuery,
      answer: pageOf(fundChoiceView),
    }),
    setChoices: put('/api/members/:id/fund-choices', {
      body: fundChoiceInput,
      answer: fundChoiceView,
      example: { body: { allocations: [{ fundId: EXAMPLE_IDS.fund, percent: 100 }] } },
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
    {
      create: {
        name: 'Trustee Company DAC',
        kind: 'corporate',
        directorCount: 3,
        appointedOn: '2024-05-01',
      },
      update: { appointedOn: '2020-02-01' },
    },
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
    {
      create: {
        function: 'risk_management',
        holderName: 'Aoife Murphy',
        holderEmail: 'aoife.murphy@example.ie',
        appointedOn: '2024-05-01',
        alsoServesEmployer: true,
        conflictsProtocol: 'Reports to the chair.\nReviewed yearly.',
      },
      update: { fitnessAndProbity: 'confirmed' },
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
      {
        create: { kind: 'remuneration', title: 'Remuneration policy', version: '1.0' },
        update: { version: '1.1' },
      },
    ),
    approve: post('/api/policies/:id/approve', {
      body: policyApproval,
      answer: policyView,
      example: { body: { approvedOn: '2025-01-10' } },
    }),
    significantChange: post('/api/policies/:id/significant-change', {
      body: significantChangeInput,
      answer: significantChangeView,
      example: {
        body: { occurredOn: '2025-02-03', description: 'A new investment manager' },
      },
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
      example: { body: { occurredOn: '2025-02-03', description: 'Closed to new entrants' } },
    }),
  },
  oraReports: register(
    {
      ofScheme: '/api/schemes/:id/ora-reports',
      entry: '/api/ora-reports/:id',
      history: '/api/ora-reports/:id/history',
    },
    { query: pageQuery, view: oraReportView, input: oraReportInput, change: oraReportChange },
    {
      create: {
        performedOn: '2025-03-01',
        trigger: 'scheduled',
        summary: 'Funding and ICT risks\nReviewed by the board',
      },
      update: { summary: 'Reviewed by the board on 3 March' },
    },
  ),
  compliance: {
    ofScheme: get('/api/schemes/:id/compliance', { answer: complianceView }),
    calendar: get('/api/compliance/calendar', {
      query: calendarQuery,
      answer: pageOf(calendarEntryView),
      example: { query: { from: '2020-01-01', to: '2021-12-31' } },
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
      example: { query: { asOf: '2026-03-31' } },
    }),
    /** The assessment as a CSV attachment. */
    exportCsv: get('/api/employers/:id/auto-enrolment/export', {
      query: assessmentQuery,
      example: { query: { asOf: '2026-03-31' } },
    }),
    summaryPdf: get('/api/employers/:id/auto-enrolment/summary.pdf', {
      query: assessmentQuery,
      example: { query: { asOf: '2026-03-31' } },
    }),
    cost: get('/api/employers/:id/auto-enrolment/cost', {
      query: assessmentQuery,
      answer: costView,
      example: { query: { asOf: '2026-03-31' } },
    }),
    overview: get('/api/auto-enrolment/overview', {
      query: assessmentQuery,
      answer: autoEnrolmentOverviewView,
      example: { query: { asOf: '2026-03-31' } },
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
    chat: post('/api/ai/chat', {
      body: chatRequest,
      answer: chatResponse,
      example: { body: { question: 'How often is an own-risk assessment carried out?' } },
    }),
    settings: get('/api/tenant/ai-settings', { answer: aiSettingsView }),
    updateSettings: put('/api/tenant/ai-settings', {
      body: aiSettingsInput,
      answer: aiSettingsView,
      example: { body: { monthlyRequestLimit: 500, monthlyTokenLimit: 2_000_000 } },
    }),
  },
  drafts: {
    create: post('/api/ai/drafts', {
      body: draftInput,
      answer: draftView,
      example: { body: { schemeId: EXAMPLE_IDS.scheme, kind: 'ora_outline' } },
    }),
    listOfScheme: get('/api/schemes/:id/ai/drafts', {
      query: pageQuery,
      answer: pageOf(draftView),
    }),
    get: get('/api/ai/drafts/:id', { answer: draftView }),
    update: patch('/api/ai/drafts/:id', {
      body: draftChange,
      answer: draftView,
      example: { body: { content: 'DRAFT FROM TEMPLATE\nOutline, edited' } },
    }),
    review: post('/api/ai/drafts/:id/review', { answer: draftView }),
    approve: post('/api/ai/drafts/:id/approve', { answer: draftView }),
    issue: post('/api/ai/drafts/:id/issue', { answer: draftView }),
  },
  /** Called by machines with a shared secret (docs/decisions/0096-bearer-prefixes-and-parser-refusals.md). */
  machines: {
    /** A scheduled job (docs/decisions/0057-scheduled-jobs.md). */
    cron: post('/api/cron/:job'),
    /** The regulatory corpus (docs/decisions/0069-regulatory-corpus-and-retrieval.md). */
    ragIngest: post('/api/rag/ingest', {
      body: ingestRequest,
      answer: ingestAnswer,
      example: {
        body: {
          documents: [
            {
              source: 'pensions-act-1990',
              title: 'Pensions Act 1990',
              url: 'https://www.irishstatutebook.ie/',
              version: '1',
              format: 'markdown',
              content: '## Section 64AL\nThe own-risk assessment.',
            },
          ],
        },
      },
    }),
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
