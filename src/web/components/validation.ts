import type { FormErrors } from '@mantine/form';
import { z } from 'zod';
import { FIELD_MESSAGES } from '../../contracts/plain-english';
import type { Role } from '../api/types';

export {
  brokerUserInput,
  colleagueInput,
  employerUserInput,
  recordNameInput,
  SCHEME_TYPE_NAMES,
  SCHEME_TYPES,
  schemeInput,
} from '../../contracts/organisation';

/**
 * A form's rule: the API's own request schema (src/contracts), run on the body the form would
 * send, so a form refuses exactly what the API would, in the same words (docs/decisions/0052-form-errors-in-plain-english.md). Each
 * field shows the first sentence for it; a rule of the whole body shows under `''`, which the
 * form reports above its fields. What only the API can know (a taken e-mail address, a too
 * common password) reaches the form through showApiErrors.
 */
export function validateWith<Values>(
  schema: z.ZodType,
  toBody: (values: Values) => unknown = (values) => values,
): (values: Values) => FormErrors {
  return (values) => {
    const result = schema.safeParse(toBody(values));
    if (result.success) return {};
    const errors: FormErrors = {};
    for (const issue of result.error.issues) {
      const field = issue.path.join('.');
      errors[field] ??= issue.message;
    }
    return errors;
  };
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

/** The body the API takes for new account values: no empty password, no member for other roles. */
export function accountBody(values: AccountValues) {
  return {
    name: values.name,
    email: values.email,
    role: values.role ?? undefined,
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
    message: FIELD_MESSAGES.endAfterStart,
  });
export type AuditFilterValues = z.infer<typeof auditFilterForm>;
