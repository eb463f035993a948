import { schemaResolver } from '@mantine/form';
import { z } from 'zod';
import type { Role, SchemeType } from '../api/types';

// Zod probes for `new Function` to compile fast parsers; under the page's strict CSP the probe is
// reported as a violation even though Zod catches it. Interpreted parsing is plenty for forms.
z.config({ jitless: true });

/**
 * The API's request rules, repeated for the browser so that a form says exactly what the API
 * would: the same Zod checks give the same messages (the API's are in
 * src/server/modules/{brokers,employers,schemes,users}/*.schemas.ts). The API still checks
 * everything; what it alone can know (a taken e-mail address, a too common password) reaches the
 * form through showApiErrors.
 */
export function validateWith(schema: z.ZodType) {
  return schemaResolver(schema, { sync: true });
}

export const SCHEME_TYPES = ['DB', 'DC', 'PRSA', 'RAC'] as const satisfies readonly SchemeType[];

export const SCHEME_TYPE_NAMES: Record<SchemeType, string> = {
  DB: 'Defined benefit',
  DC: 'Defined contribution',
  PRSA: 'Personal Retirement Savings Account',
  RAC: 'Retirement Annuity Contract',
};

const PASSWORD_MIN_LENGTH = 12;
const PASSWORD_MAX_LENGTH = 1024;

const name = z.string().trim().min(1).max(200);

const emailAddress = z
  .string()
  .trim()
  .min(3)
  .max(320)
  // The API's pattern (src/server/http/text.ts): no two quantifiers can take the same dots, so a
  // long paste cannot freeze the page in a quadratic match.
  .regex(/^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/, 'must be an e-mail address');

/**
 * Optional: an empty field means "send the new user an e-mail to choose one". Counted in
 * characters, not UTF-16 units, as the API's password rule counts them.
 */
const optionalPassword = z
  .string()
  .refine(
    (value) => value === '' || [...value].length >= PASSWORD_MIN_LENGTH,
    `must be at least ${PASSWORD_MIN_LENGTH} characters`,
  )
  .refine(
    (value) => [...value].length <= PASSWORD_MAX_LENGTH,
    `must be at most ${PASSWORD_MAX_LENGTH} characters`,
  );

/** A broker firm and an employer each have just a name. */
export const namedRecordForm = z.object({ name });
export type NamedRecordValues = z.infer<typeof namedRecordForm>;

export const schemeForm = z.object({
  name,
  type: z.enum(SCHEME_TYPES),
  employerId: z.string(),
});
export interface SchemeValues {
  name: string;
  /** Empty until chosen. */
  type: SchemeType | '';
  employerId: string | null;
}

export type AccountRole = Extract<
  Role,
  'BrokerAdmin' | 'BrokerUser' | 'EmployerAdmin' | 'EmployerUser' | 'Member'
>;

export interface AccountValues {
  name: string;
  email: string;
  role: AccountRole | null;
  password: string;
  memberId: string | null;
}

/** A new account of one of `roles`; a Member account names the member record it may see. */
export function accountForm(roles: readonly [AccountRole, ...AccountRole[]]) {
  return z
    .object({
      name,
      email: emailAddress,
      role: z.enum(roles),
      password: optionalPassword,
      memberId: z.string().nullable(),
    })
    .superRefine((values, context) => {
      if ((values.role === 'Member') !== (values.memberId !== null)) {
        context.addIssue({
          code: 'custom',
          path: ['memberId'],
          message: 'is required for a Member account, and only for one',
        });
      }
    });
}

/** The body the API takes for new account values: no empty password, no member for other roles. */
export function accountBody(values: AccountValues) {
  return {
    name: values.name,
    email: values.email,
    role: values.role,
    ...(values.password === '' ? {} : { password: values.password }),
    ...(values.role === 'Member' && values.memberId ? { memberId: values.memberId } : {}),
  };
}

const auditId = z.string().trim().max(64);

/** The filters of `GET /api/audit`; the dates are whole days, turned into times on the way out. */
export const auditFilterForm = z
  .object({
    entityType: auditId,
    entityId: auditId,
    actorId: auditId,
    from: z.string().nullable(),
    to: z.string().nullable(),
  })
  .refine((values) => !values.from || !values.to || values.from <= values.to, {
    path: ['to'],
    message: 'must not be before the first day',
  });
export type AuditFilterValues = z.infer<typeof auditFilterForm>;
