import type { FormErrors } from '@mantine/form';
import { employerChange, type PayrollFrequency } from '../../contracts/organisation';
import type { Employer } from '../api/types';
import { validateWith } from './validation';

/**
 * An employer's name and details as its edit form holds them
 * (docs/decisions/0132-employer-and-scheme-details.md): each as typed, empty for none. What each
 * field accepts is the API's own rule (employerChange in contracts/organisation.ts), asked here,
 * never restated.
 */
export interface EmployerEditValues {
  name: string;
  croNumber: string;
  employerRegistrationNumber: string;
  registeredAddress: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  payrollFrequency: PayrollFrequency | '';
}

const DETAILS = [
  'croNumber',
  'employerRegistrationNumber',
  'registeredAddress',
  'contactName',
  'contactEmail',
  'contactPhone',
  'payrollFrequency',
] as const;

/** The edit form's starting values: the employer as it is. */
export function employerEditValues(employer: Employer): EmployerEditValues {
  return {
    name: employer.name,
    croNumber: employer.croNumber ?? '',
    employerRegistrationNumber: employer.employerRegistrationNumber ?? '',
    registeredAddress: employer.registeredAddress ?? '',
    contactName: employer.contactName ?? '',
    contactEmail: employer.contactEmail ?? '',
    contactPhone: employer.contactPhone ?? '',
    payrollFrequency: employer.payrollFrequency ?? '',
  };
}

/** Every field as the API takes it: nothing typed is null. */
function employerBody(values: EmployerEditValues) {
  const details = Object.fromEntries(
    DETAILS.map((key) => [key, values[key].trim() === '' ? null : values[key]]),
  ) as { [K in (typeof DETAILS)[number]]: string | null };
  return {
    name: values.name,
    ...details,
    payrollFrequency: values.payrollFrequency === '' ? null : values.payrollFrequency,
  };
}

/**
 * What the edit form sends to `PATCH /api/employers/:id`: only what changed, so the audit record
 * names only that.
 */
export function employerChangeBody(employer: Employer, values: EmployerEditValues) {
  const body = employerBody(values);
  return {
    ...(values.name.trim() !== employer.name ? { name: values.name } : {}),
    ...Object.fromEntries(
      DETAILS.filter((key) => body[key] !== employer[key]).map((key) => [key, body[key]]),
    ),
  } as Partial<ReturnType<typeof employerBody>>;
}

/** The edit form's rule: the API's change schema on every field as the form would leave them. */
export function validateEmployerEdit(values: EmployerEditValues): FormErrors {
  return validateWith<EmployerEditValues>(employerChange, employerBody)(values);
}
