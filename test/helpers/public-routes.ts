/**
 * The API routes open without a session, in OpenAPI form (`METHOD /path/{param}`): signing in and
 * out (the second step of a sign-in and a sign-in with a passkey included), the session check,
 * password reset and checking its link first, accepting an invitation and checking its link first, the health probes, and the
 * scheduled jobs (which take the CRON_SECRET bearer instead, test/cron/cron-route.test.ts) and the
 * corpus ingest (the RAG_INGEST_SECRET bearer, test/rag/ingest-route.test.ts) and the metrics
 * (the METRICS_SECRET bearer, test/metrics/metrics.test.ts). Every
 * other /api route names an action of the policy table (src/contracts/policy.ts). Outside /api, the
 * telemetry tunnel, /openapi.json, the web UI's files and the signed document downloads
 * (`GET /files/{documentId}/{token}`, whose signed token is the credential:
 * test/documents/documents.test.ts) are public too.
 */
export const PUBLIC_API_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/auth/callback/credentials',
  'POST /api/auth/signin',
  'GET /api/auth/session',
  'POST /api/auth/signout',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/auth/reset-link',
  'POST /api/auth/accept-invitation',
  'POST /api/auth/invitation-link',
  'POST /api/auth/mfa/verify',
  'POST /api/auth/passkeys/authentication/options',
  'POST /api/auth/passkeys/authentication',
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/health/db',
  'GET /api/health/metrics',
  'POST /api/cron/{job}',
  'POST /api/rag/ingest',
]);
