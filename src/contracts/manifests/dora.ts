import {
  ictClassificationInput,
  ictIncidentInput,
  ictIncidentQuery,
  ictIncidentUpdate,
  ictIncidentView,
  ictProviderInput,
  ictProviderQuery,
  ictProviderUpdate,
  ictProviderView,
  ictReportInput,
  ictReportTemplate,
} from '../dora.js';
import { registerEntitiesView } from '../dora-register.js';
import { pageOf } from '../pages.js';
import { get, patch, post } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/**
 * DORA (docs/decisions/0139-dora-ict-incidents.md): the firm's register of ICT incidents with the
 * clocks of a major incident's reports. Every step answers the incident as it now stands.
 */
export const doraManifest = defineManifest({
  name: 'dora',
  routes: {
    ictIncidents: {
      create: post('/api/ict-incidents', {
        body: ictIncidentInput,
        answer: ictIncidentView,
        example: {
          body: {
            title: 'Member portal unavailable',
            description:
              'Members could not sign in to see their benefits; the service answered with errors from 08:10.',
            detectedAt: '2026-01-09T08:10:00Z',
            becameAwareAt: '2026-01-09T08:30:00Z',
            servicesAffected: ['member_portal'],
          },
        },
      }),
      list: get('/api/ict-incidents', { query: ictIncidentQuery, answer: pageOf(ictIncidentView) }),
      get: get('/api/ict-incidents/:id', { answer: ictIncidentView }),
      update: patch('/api/ict-incidents/:id', {
        body: ictIncidentUpdate,
        answer: ictIncidentView,
        example: {
          body: {
            servicesRecoveredAt: '2026-01-09T13:00:00Z',
            rootCause: 'An expired certificate on the sign-in service',
          },
        },
      }),
      classify: post('/api/ict-incidents/:id/classify', {
        body: ictClassificationInput,
        answer: ictIncidentView,
        example: {
          body: {
            criteria: {
              criticalServicesAffected: true,
              membersAffected: 900,
              membersOfService: 1200,
              relevantMembersAffected: false,
              reputationalImpact: false,
              durationHours: 5,
              downtimeHours: 4.5,
              memberStatesAffected: 1,
              dataLosses: false,
              economicImpactCents: 0,
            },
            major: true,
          },
        },
      }),
      report: post('/api/ict-incidents/:id/reports', {
        body: ictReportInput,
        answer: ictIncidentView,
        example: { body: { kind: 'initial', submittedAt: '2026-01-09T14:00:00Z' } },
      }),
      template: get('/api/ict-incidents/:id/reports/:kind/template', { answer: ictReportTemplate }),
    },
    ictProviders: {
      create: post('/api/dora/ict-providers', {
        body: ictProviderInput,
        answer: ictProviderView,
        example: {
          body: {
            name: 'Harbour Payroll Services',
            identifier: '635400EXAMPLE0LEI012',
            identifierType: 'LEI',
            country: 'IE',
            serviceType: 'S19',
            contractReference: 'HPS-2025-014',
            startedOn: '2025-02-01',
            supportsCriticalFunction: true,
          },
        },
      }),
      list: get('/api/dora/ict-providers', {
        query: ictProviderQuery,
        answer: pageOf(ictProviderView),
      }),
      update: patch('/api/dora/ict-providers/:id', {
        body: ictProviderUpdate,
        answer: ictProviderView,
        example: { body: { endedOn: '2026-01-31' } },
      }),
    },
    registerOfInformation: {
      /** The register of information (ITS (EU) 2024/2956) as CSV files in one ZIP attachment. */
      export: get('/api/dora/register-of-information.zip'),
      /** The firm and its schemes the register names, each with its LEI or null. */
      entities: get('/api/dora/register-of-information/entities', {
        answer: registerEntitiesView,
      }),
    },
  },
  audit: {
    records: {
      ict_incident: { noun: 'an ICT incident', label: 'ICT incident' },
      ict_provider: { noun: 'an ICT provider', label: 'ICT provider' },
    },
    actions: {
      'ict_incident.recorded': 'Recorded an ICT incident',
      'ict_incident.updated': 'Changed the record of an ICT incident',
      'ict_incident.classified': 'Classified an ICT incident',
      'ict_incident.reported': 'Recorded a report of an ICT incident to the Pensions Authority',
      'ict_incident.listed': 'Listed the ICT incidents',
      'ict_incident.viewed': 'Viewed an ICT incident',
      'ict_provider.recorded': 'Added an ICT provider to the register',
      'ict_provider.updated': 'Changed an ICT provider in the register',
      'ict_provider.listed': 'Listed the ICT providers',
    },
  },
});
