import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../contracts/plain-english';
import type { Employer } from '../api/types';
import { employerChangeBody, employerEditValues, validateEmployerEdit } from './employer-fields';

const employer: Employer = {
  id: 'e1',
  brokerId: 'b1',
  name: 'Corrib Mills Ltd',
  croNumber: '654321',
  employerRegistrationNumber: null,
  registeredAddress: null,
  contactName: 'Gobnait Ní Chonaill',
  contactEmail: 'gobnait@example.ie',
  contactPhone: null,
  payrollFrequency: 'monthly',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('the employer edit form', () => {
  it('starts from the employer as it is, empty where a detail is not kept', () => {
    expect(employerEditValues(employer)).toEqual({
      name: 'Corrib Mills Ltd',
      croNumber: '654321',
      employerRegistrationNumber: '',
      registeredAddress: '',
      contactName: 'Gobnait Ní Chonaill',
      contactEmail: 'gobnait@example.ie',
      contactPhone: '',
      payrollFrequency: 'monthly',
    });
  });

  it('sends only what changed, a detail emptied as null', () => {
    const values = {
      ...employerEditValues(employer),
      croNumber: '',
      contactPhone: '091 555 0199',
      payrollFrequency: 'weekly' as const,
    };
    expect(employerChangeBody(employer, values)).toEqual({
      croNumber: null,
      contactPhone: '091 555 0199',
      payrollFrequency: 'weekly',
    });
    expect(employerChangeBody(employer, employerEditValues(employer))).toEqual({});
  });

  it('refuses by the API’s own rules, in its words', () => {
    expect(
      validateEmployerEdit({
        ...employerEditValues(employer),
        name: '',
        croNumber: 'IE654321',
        employerRegistrationNumber: '1234567',
        contactEmail: 'gobnait',
        contactPhone: '12',
      }),
    ).toEqual({
      name: FIELD_MESSAGES.name,
      croNumber: FIELD_MESSAGES.croNumber,
      employerRegistrationNumber: FIELD_MESSAGES.employerRegistrationNumber,
      contactEmail: FIELD_MESSAGES.email,
      contactPhone: FIELD_MESSAGES.phone,
    });
    expect(validateEmployerEdit(employerEditValues(employer))).toEqual({});
  });
});
