import type { z } from 'zod';
import type { AccountState, ListedAccount, MeView, SessionUser } from '../../contracts/accounts';
import type {
  AiSettingsView,
  ChatCitation,
  ChatResponse,
  DraftKind,
  DraftStatus,
  DraftView,
} from '../../contracts/ai';
import type { AuditRecordView } from '../../contracts/audit';
import type {
  ContributionKind,
  ContributionView,
  PaidIn,
  payrollView,
  periodTotals,
} from '../../contracts/contributions';
import type { DataBreachView } from '../../contracts/data-breaches';
import type { DocumentView } from '../../contracts/documents';
import type { FundChoiceView, FundView } from '../../contracts/funds';
import type {
  CalendarEntryView,
  ComplianceView,
  ConflictView,
  FilingView,
  GovernanceDashboardView,
  KeyFunctionHolderView,
  ObligationView,
  OraReportView,
  PolicyView,
  SignificantChangeView,
  TrusteeTrainingView,
  TrusteeView,
} from '../../contracts/governance';
import type {
  ImportIssue,
  ImportKind,
  ImportStatus,
  ImportSummary,
  ImportView,
} from '../../contracts/imports';
import type {
  FundAssetsView,
  FundPriceList,
  FundPricesRecorded,
  HoldingsView,
  MemberTransactionView,
  SwitchView,
  ValueHistoryView,
} from '../../contracts/investments';
import type { MemberStatus, MemberView } from '../../contracts/members';
import type {
  BrokerView,
  EmployerView,
  SchemeDetailView,
  SchemeType,
  SchemeView,
} from '../../contracts/organisation';
import type { OverviewView } from '../../contracts/overview';
import type { MemberSummary } from '../../contracts/portal';
import type {
  LateRemittanceReport,
  RemittanceMonthView,
  RemittanceReceiptView,
} from '../../contracts/remittances';
import type { Role } from '../../contracts/roles';

/**
 * The shapes the API answers with, as the UI names them: each the type of the API's own response
 * schema (src/contracts), never a copy that could drift from it.
 */
export type { AccountState, Role, SessionUser };
/** An account as a list shows it (`GET /api/users`, an employer's accounts). */
/** An account as the lists of accounts show it. */
export type User = ListedAccount;
/** One's own account (`GET /api/me`), with the names the header shows. */
export type Me = MeView;

export type Overview = OverviewView;
export type Broker = BrokerView;
export type Employer = EmployerView;
export type { SchemeType };
export type Scheme = SchemeView;
/** One scheme as its page reads it: with whether members belong to it, which fixes its type. */
export type SchemeDetail = SchemeDetailView;
export type { MemberStatus };
export type Member = MemberView;
export type { ContributionKind };
export type Contribution = ContributionView;
export type Fund = FundView;
export type FundChoice = FundChoiceView;
export type Holdings = HoldingsView;
export type ValueHistory = ValueHistoryView;
export type MemberTransaction = MemberTransactionView;
export type FundSwitch = SwitchView;
export type FundAssets = FundAssetsView;
export type FundPrices = FundPriceList;
export type { FundPricesRecorded };
export type AuditRecord = AuditRecordView;
export type { ImportIssue, ImportKind, ImportStatus, ImportSummary };
/** One import with its issues (GET /api/imports/:id): every bad row, up to 10,000. */
export type ImportDetail = ImportView;
export type { MemberSummary, PaidIn };
/** `GET /api/schemes/:id/payroll/:period`: one pay period of a whole scheme (docs/decisions/0048-contributions-as-a-payroll-grid.md). */
export type PayrollGrid = z.infer<typeof payrollView>;
export type PayrollCell = PayrollGrid['rows'][number]['employee'];
export type PeriodTotals = z.infer<typeof periodTotals>['items'][number];
/** Contribution remittance (docs/decisions/0136-contribution-remittance.md): a month, a payment. */
export type RemittanceMonth = RemittanceMonthView;
export type RemittanceReceipt = RemittanceReceiptView;
export type LateRemittance = LateRemittanceReport['items'][number];
/** A personal-data breach with its 72-hour clock (docs/decisions/0138-personal-data-breaches.md). */
export type DataBreach = DataBreachView;

/** Governance under IORP II (docs/decisions/0059-governance-rules.md): the registers of a scheme and its standing. */
export type Trustee = TrusteeView;
export type KeyFunctionHolder = KeyFunctionHolderView;
export type WrittenPolicy = PolicyView;
export type OraReport = OraReportView;
export type SchemeDocument = DocumentView;
export type SignificantChange = SignificantChangeView;
/** The scheme year (docs/decisions/0122-the-scheme-year.md): trustees' training, the filings. */
export type TrusteeTraining = TrusteeTrainingView;
export type Filing = FilingView;
/** The register of conflicts of interest (docs/decisions/0133-governance-registers-completed.md). */
export type Conflict = ConflictView;
export type Compliance = ComplianceView;
export type Obligation = ObligationView;
export type ComplianceStatus = ObligationView['status'];
export type CalendarEntry = CalendarEntryView;
export type GovernanceDashboard = GovernanceDashboardView;

/** AI: an answer from the regulatory texts, a draft, the firm's provider settings. */
export type ChatAnswer = ChatResponse;
export type { ChatCitation, DraftKind, DraftStatus };
export type Draft = DraftView;
export type AiSettings = AiSettingsView;
