import { listedAccount, userView } from '../accounts.js';
import { employerChange, employerInput, employerUserInput, employerView } from '../organisation.js';
import { pageOf, pageQuery } from '../pages.js';
import { get, patch, post, remove } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The employers module's routes and audit words (src/contracts/manifests/manifest.ts). */
export const employersManifest = defineManifest({
  name: 'employers',
  routes: {
    employers: {
      create: post('/api/employers', {
        body: employerInput,
        answer: employerView,
        example: {
          body: {
            name: 'Galway Engineering Ltd',
            croNumber: '654321',
            employerRegistrationNumber: '1234567T',
            registeredAddress: 'Unit 4, Parkmore Business Park\nGalway H91 X2Y3',
            contactName: 'Aoife Byrne',
            contactEmail: 'payroll@example.ie',
            contactPhone: '091 123 4567',
            payrollFrequency: 'monthly',
          },
        },
      }),
      list: get('/api/employers', { query: pageQuery, answer: pageOf(employerView) }),
      get: get('/api/employers/:id', { answer: employerView }),
      update: patch('/api/employers/:id', {
        body: employerChange,
        answer: employerView,
        example: { body: { name: 'Galway Engineering DAC', payrollFrequency: 'fortnightly' } },
      }),
      remove: remove('/api/employers/:id'),
      createUser: post('/api/employers/:id/users', {
        body: employerUserInput,
        answer: userView,
        example: { body: { email: 'hr@example.ie', name: 'Seán Kelly', role: 'EmployerUser' } },
      }),
      listUsers: get('/api/employers/:id/users', {
        query: pageQuery,
        answer: pageOf(listedAccount),
      }),
    },
  },
  audit: {
    records: {
      employer: { noun: 'an employer', label: 'Employer' },
    },
    actions: {
      'employer.created': 'Created an employer',
      'employer.updated': 'Changed an employer’s details',
      'employer.deleted': 'Deleted an employer',
      'employer.viewed': 'Viewed an employer',
      'employer.listed': 'Listed employers',
    },
  },
});
