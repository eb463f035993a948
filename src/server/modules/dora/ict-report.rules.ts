import {
  type ClassificationFacts,
  CRITERION_LABELS,
  REPORT_KIND_LABELS,
  type ReportKind,
} from '../../../contracts/dora-rules.js';
import { momentInWords } from '../../../contracts/irish-dates.js';
import { formatCents } from '../../../contracts/money.js';
import type { IctIncidentView, IctReportTemplate } from './ict-incidents.schemas.js';
import { ICT_SERVICE_LABELS } from './ict-incidents.schemas.js';

/**
 * A report of an incident pre-filled in the fields of the common template of ITS (EU) 2025/302
 * (Annex I, one template for the initial notification, the intermediate and the final report;
 * docs/decisions/0139-dora-ict-incidents.md). The sections grow with the kind: an intermediate
 * report carries the initial notification's fields too, a final report all three. A field the
 * register does not hold is left empty (null) for the firm to fill before sending.
 */

const SECTIONS_OF: Record<ReportKind, number> = {
  initial: 2,
  intermediate: 3,
  final: 4,
  reclassified: 2,
};

const moment = (value: string | null) => (value === null ? null : momentInWords(value));
const yesNo = (value: boolean | undefined) => (value === undefined ? null : value ? 'Yes' : 'No');

export function reportTemplate(
  incident: IctIncidentView,
  kind: ReportKind,
  firm: { name: string; lei: string | null } | null,
): IctReportTemplate {
  const criteria: ClassificationFacts | undefined = incident.classification?.criteria;
  const met = incident.classification?.thresholdsMet ?? [];
  const percent =
    criteria && criteria.membersOfService > 0
      ? `${((criteria.membersAffected * 100) / criteria.membersOfService).toFixed(1)}%`
      : null;
  const sections: IctReportTemplate['sections'] = [
    {
      title: 'General information about the financial entity',
      fields: [
        { name: 'Type of submission', value: REPORT_KIND_LABELS[kind] },
        { name: 'Name of the entity submitting the report', value: firm?.name ?? null },
        {
          name: 'Identification code (LEI) of the entity submitting the report',
          value: firm?.lei ?? null,
        },
        {
          name: 'Type of financial entity',
          value: 'Institution for occupational retirement provision',
        },
        { name: 'Competent authority', value: 'The Pensions Authority' },
        { name: 'Name and contact details of the primary contact person', value: null },
      ],
    },
    {
      title: 'Content of the initial notification',
      fields: [
        {
          name: 'Incident reference code assigned by the financial entity',
          value: incident.reference,
        },
        { name: 'Date and time of detection of the incident', value: moment(incident.detectedAt) },
        {
          name: 'Date and time of classification of the incident as major',
          value: moment(incident.classifiedMajorAt),
        },
        { name: 'Description of the incident', value: incident.description },
        {
          name: 'Classification criteria that triggered the report',
          value:
            met.length === 0
              ? null
              : met.map((criterion) => CRITERION_LABELS[criterion]).join('; '),
        },
        {
          name: 'Member States affected',
          value: criteria ? String(criteria.memberStatesAffected) : null,
        },
        {
          name: 'Incident originating from a third-party provider',
          value:
            incident.platformIncidentId === null
              ? null
              : 'Yes: the pension administration platform, the direct ICT provider',
        },
        { name: 'How the incident was discovered', value: null },
        { name: 'Activation of the business continuity plan', value: null },
        ...(kind === 'reclassified'
          ? [
              {
                name: 'Date and time of reclassification as non-major',
                value: moment(incident.reclassifiedAt),
              },
              {
                name: 'Reasons for the reclassification',
                value: incident.classification?.words ?? null,
              },
            ]
          : []),
      ],
    },
    {
      title: 'Content of the intermediate report',
      fields: [
        { name: 'Date and time of occurrence of the incident', value: null },
        {
          name: 'Date and time when regular activities were recovered',
          value: moment(incident.servicesRecoveredAt),
        },
        {
          name: 'Number of clients affected',
          value: criteria ? String(criteria.membersAffected) : null,
        },
        { name: 'Percentage of clients affected', value: percent },
        {
          name: 'Clients identified as relevant affected',
          value: yesNo(criteria?.relevantMembersAffected),
        },
        { name: 'Reputational impact', value: yesNo(criteria?.reputationalImpact) },
        {
          name: 'Duration of the incident (hours)',
          value: criteria ? String(criteria.durationHours) : null,
        },
        {
          name: 'Service downtime (hours)',
          value: criteria ? String(criteria.downtimeHours) : null,
        },
        { name: 'Data losses', value: yesNo(criteria?.dataLosses) },
        {
          name: 'Services affected',
          value: incident.servicesAffected.map((service) => ICT_SERVICE_LABELS[service]).join('; '),
        },
        {
          name: 'Recurring incident',
          value:
            incident.recurrenceOf === null ? 'No' : `Yes: recurs incident ${incident.recurrenceOf}`,
        },
        { name: 'Apparent root cause', value: incident.rootCause },
      ],
    },
    {
      title: 'Content of the final report',
      fields: [
        { name: 'Root causes of the incident', value: incident.rootCause },
        { name: 'Date and time when the root cause was addressed', value: null },
        {
          name: 'Date and time when the incident was resolved',
          value: moment(incident.servicesRecoveredAt),
        },
        {
          name: 'Direct and indirect costs and losses',
          value: criteria ? formatCents(criteria.economicImpactCents) : null,
        },
        { name: 'Information about the lessons learnt', value: null },
      ],
    },
  ];
  return {
    incidentId: incident.id,
    kind,
    sendTo: 'The Pensions Authority, by e-mail, in the template of ITS (EU) 2025/302',
    sections: sections.slice(0, SECTIONS_OF[kind]),
  };
}
