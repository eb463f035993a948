/**
 * The API's answers as the UI reads them: each the response schema the server validates its own
 * answer with (src/contracts), so a page parses exactly what the route promises
 * (docs/decisions/0056-shared-contracts.md). `api()` takes one of these for every request.
 */
export {
  messageAnswer,
  meView,
  sessionAnswer,
  signedIn,
  userView,
} from '../../contracts/accounts';
export { aiSettingsView, chatResponse, draftView } from '../../contracts/ai';
export { auditRecordView } from '../../contracts/audit';
export {
  assessmentView,
  costView,
  overviewView as autoEnrolmentOverviewView,
  payrollUploadPage,
  payrollUploadSummary,
  payrollUploadView,
} from '../../contracts/auto-enrolment';
export {
  contributionView,
  payrollSaved,
  payrollView,
  periodTotals,
} from '../../contracts/contributions';
export { documentUrlView, documentView } from '../../contracts/documents';
export { fundChoiceView, fundView } from '../../contracts/funds';
export {
  calendarEntryView,
  complianceView,
  governanceDashboardView,
  keyFunctionHolderView,
  oraReportView,
  policyView,
  significantChangeView,
  trusteeView,
} from '../../contracts/governance';
export { importSummary, importView } from '../../contracts/imports';
export { memberExport, memberView, revealedPps } from '../../contracts/members';
export { brokerView, employerView, schemeView } from '../../contracts/organisation';
export { overviewView } from '../../contracts/overview';
export { pageOf } from '../../contracts/pages';
export { contactView, memberSummary } from '../../contracts/portal';
