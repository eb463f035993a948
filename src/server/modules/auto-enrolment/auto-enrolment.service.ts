import type {
  AssessedEmployee,
  AssessmentQuery,
  AssessmentView,
  CostView,
  OverviewView,
  StatusTotals,
} from '../../../contracts/auto-enrolment.js';
import {
  AE_REASONS,
  AE_STATUS_LABELS,
  type Assessment,
  annualised,
  assessEmployee,
  assessmentWindow,
  type CostInput,
  costComparison,
  reasonSource,
  SHORTFALL_PERIOD,
} from '../../../contracts/auto-enrolment-rules.js';
import { csvDocument } from '../../../contracts/csv.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { plainEuro } from '../../../contracts/money.js';
import type { Action } from '../../../contracts/policy.js';
import type { AuditAction, AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import { type EmployerRow, findEmployer } from '../employers/index.js';
import {
  type EmployeeWindowRow,
  employeeWindows,
  liveEmployersInReach,
} from './auto-enrolment.data.js';
import { summaryPdf } from './auto-enrolment-summary.pdf.js';

type ReportAction = Extract<
  Action,
  'auto_enrolment.read' | 'auto_enrolment.export' | 'auto_enrolment.summary' | 'auto_enrolment.cost'
>;

/**
 * The audit action of each report that shows people (docs/decisions/0130-what-reads-are-audited.md):
 * the assessment names each employee with their pay and the CSV carries it away, so both are
 * recorded. The PDF summary and the cost comparison are counts and sums, no one's data, and are not.
 */
const REPORT_AUDIT: Record<ReportAction, AuditAction | null> = {
  'auto_enrolment.read': 'auto_enrolment.viewed',
  'auto_enrolment.export': 'auto_enrolment.exported',
  'auto_enrolment.summary': null,
  'auto_enrolment.cost': null,
};

interface Assessed {
  view: AssessmentView;
  /** The below-standard members, a year's figures each, for the cost comparison. */
  belowStandard: CostInput[];
}

const emptyTotals = (): StatusTotals => ({
  exempt: 0,
  likely_exempt: 0,
  below_standard: 0,
  likely_enrolled: 0,
  not_eligible: 0,
});

/**
 * One employee's facts for the rule module. Which data wins (docs/decisions/0068-auto-enrolment-readiness.md):
 * amounts come from the payroll alone, since s.51 asks what was paid
 * through payroll; the membership matched by PPS lookup tells whether the person is in a scheme,
 * its type and when they joined; a payroll line naming a DB scheme counts as DB membership. A DB
 * member is exempt only with contributions through payroll, and otherwise likely exempt.
 */
function assessRow(row: EmployeeWindowRow, windowStart: string): Assessment {
  const membership =
    row.scheme_type !== null && row.date_joined !== null
      ? { schemeType: row.pays_into_db ? 'DB' : row.scheme_type, dateJoined: row.date_joined }
      : row.pays_into_db
        ? { schemeType: 'DB', dateJoined: windowStart }
        : null;
  return assessEmployee({
    windowStart,
    dateOfBirth: row.date_of_birth,
    lastPeriodEnd: row.last_period_end,
    yearUnits: row.year_units,
    grossCents: row.gross_cents,
    employeeCents: row.employee_cents,
    employerCents: row.employer_cents,
    periodsEmployerOnly: row.periods_employer_only,
    periodsEmployeeOnly: row.periods_employee_only,
    periodsBoth: row.periods_both,
    periodsNeither: row.periods_neither,
    prsaWithoutDeductions: row.prsa_without_deductions,
    paysThroughPayroll: row.pays_through_payroll,
    membership,
  });
}

async function assessEmployer(
  tx: Transaction,
  employer: EmployerRow,
  asOf: string,
): Promise<Assessed> {
  const window = assessmentWindow(asOf);
  const rows = await employeeWindows(tx, {
    brokerId: employer.brokerId,
    employerId: employer.id,
    ...window,
  });
  const totals = emptyTotals();
  const belowStandard: CostInput[] = [];
  const employees = rows.map((row): AssessedEmployee => {
    const assessed = assessRow(row, window.windowStart);
    totals[assessed.status] += 1;
    if (assessed.status === 'below_standard') {
      belowStandard.push({
        reckonablePayCentsAYear: annualised(assessed.reckonablePayCents, row.year_units),
        employerCentsAYear: annualised(row.employer_cents, row.year_units),
        employeeCentsAYear: annualised(row.employee_cents, row.year_units),
      });
    }
    return {
      employeeId: row.employee_id,
      ...(row.member_id === null ? {} : { memberId: row.member_id }),
      ...(row.first_name === null ? {} : { firstName: row.first_name }),
      ...(row.last_name === null ? {} : { lastName: row.last_name }),
      status: assessed.status,
      reasons: assessed.reasons.map((code) => ({
        code,
        message: AE_REASONS[code],
        ...reasonSource(code),
      })),
      ...(assessed.shortfallCents === undefined ? {} : { shortfallCents: assessed.shortfallCents }),
    };
  });
  return { view: { asOf, ...window, employees, totals }, belowStandard };
}

function costOf(assessed: Assessed): CostView {
  const { asOf, windowStart, windowEnd } = assessed.view;
  return {
    asOf,
    windowStart,
    windowEnd,
    employees: assessed.belowStandard.length,
    years: costComparison(assessed.belowStandard),
  };
}

/** The CSV's shortfall column, naming the period the shortfall is over (not a year's). */
export const SHORTFALL_COLUMN = `Shortfall EUR over ${SHORTFALL_PERIOD}`;

/** In the form the upload reads euro in (docs/decisions/0100-one-money-rule.md). */
const euroCell = (cents: number | undefined) => (cents === undefined ? '' : plainEuro(cents));

export interface AutoEnrolmentServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * The auto-enrolment assessment of an employer's payroll and its reports (rules:
 * contracts/auto-enrolment-rules.ts). A report that shows people is audited with ids and counts only.
 */
export function createAutoEnrolmentService({ database, audit, now }: AutoEnrolmentServiceDeps) {
  /** Authorises, assesses and records the read where it shows people, in one transaction. */
  async function report(
    actor: ActorContext,
    action: ReportAction,
    employerId: string,
    query: AssessmentQuery,
  ) {
    const tenantActor: TenantActor = authorize(actor, action);
    const asOf = query.asOf ?? todayInIreland(now());
    return withActor(database, tenantActor, async (tx) => {
      const employer = authorizeRow(tenantActor, action, await findEmployer(tx, employerId));
      const assessed = await assessEmployer(tx, employer, asOf);
      const audited = REPORT_AUDIT[action];
      if (audited !== null) {
        await audit.record(tx, tenantActor, {
          action: audited,
          entityType: 'employer',
          entityId: employer.id,
          tenantId: employer.brokerId,
          previousState: null,
          newState: {
            asOf,
            employees: assessed.view.employees.length,
            totals: assessed.view.totals,
          },
        });
      }
      return { employer, assessed };
    });
  }

  return {
    async assess(actor: ActorContext, employerId: string, query: AssessmentQuery) {
      authorize(actor, 'auto_enrolment.read');
      return (await report(actor, 'auto_enrolment.read', employerId, query)).assessed.view;
    },

    /** The assessment as CSV, one employee a line, safe to open in a spreadsheet (contracts/csv.ts). */
    async exportCsv(actor: ActorContext, employerId: string, query: AssessmentQuery) {
      authorize(actor, 'auto_enrolment.export');
      const { assessed } = await report(actor, 'auto_enrolment.export', employerId, query);
      const { view } = assessed;
      return csvDocument([
        [
          'Employee ID',
          'Member ID',
          'First Name',
          'Last Name',
          'Status',
          'Reasons',
          SHORTFALL_COLUMN,
          'As Of',
          'Window Start',
          'Window End',
        ],
        ...view.employees.map((employee) => [
          employee.employeeId,
          employee.memberId ?? '',
          employee.firstName ?? '',
          employee.lastName ?? '',
          AE_STATUS_LABELS[employee.status],
          employee.reasons.map((reason) => reason.message).join(' '),
          euroCell(employee.shortfallCents),
          view.asOf,
          view.windowStart,
          view.windowEnd,
        ]),
      ]);
    },

    /** The employer's PDF summary: counts, reasons and the cost comparison, no names. */
    async summary(actor: ActorContext, employerId: string, query: AssessmentQuery) {
      authorize(actor, 'auto_enrolment.summary');
      const { employer, assessed } = await report(
        actor,
        'auto_enrolment.summary',
        employerId,
        query,
      );
      return summaryPdf(employer.name, assessed.view, costOf(assessed), now());
    },

    async cost(actor: ActorContext, employerId: string, query: AssessmentQuery) {
      authorize(actor, 'auto_enrolment.cost');
      return costOf((await report(actor, 'auto_enrolment.cost', employerId, query)).assessed);
    },

    /**
     * Every employer's totals within the actor's reach: the broker's dashboard figures. Counts
     * only, no person's data, so reading them is not audited: the dashboard is opened many times a
     * day, and a record of each opening buried the records that matter
     * (docs/decisions/0130-what-reads-are-audited.md).
     */
    async overview(actor: ActorContext, query: AssessmentQuery): Promise<OverviewView> {
      const tenantActor = authorize(actor, 'auto_enrolment.overview');
      const bounds = boundsOf(tenantActor, 'auto_enrolment.overview');
      const asOf = query.asOf ?? todayInIreland(now());
      return withActor(database, tenantActor, async (tx) => {
        const reached = await liveEmployersInReach(tx, bounds.tenantId);
        const rows: OverviewView['employers'] = [];
        for (const employer of reached) {
          const assessed = await assessEmployer(tx, employer, asOf);
          rows.push({
            employerId: employer.id,
            employerName: employer.name,
            totals: assessed.view.totals,
          });
        }
        return { asOf, ...assessmentWindow(asOf), employers: rows };
      });
    },
  };
}

export type AutoEnrolmentService = ReturnType<typeof createAutoEnrolmentService>;
