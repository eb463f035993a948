import { law, productPolicy, type RuleSource } from './rule-sources.js';

/**
 * Rectification of a member's data and the recipients told of it
 * (docs/decisions/0148-rectification-and-recipients.md): a rectification request is completed by
 * naming which of the member's details were corrected (the correction itself is made, and
 * audited, through the member's own routes) and to whom the old details had been disclosed and
 * who were told of the correction. Pure values and functions; the service and the page both ask
 * this module (test/gdpr/rectification.test.ts).
 */

/** The member's details a correction may name: a fixed list, so the audit log may keep them. */
export const RECTIFIABLE_FIELDS = [
  'name',
  'date_of_birth',
  'address',
  'email',
  'phone',
  'salary',
  'pps_number',
  'date_joined',
  'dependants',
  'beneficiaries',
] as const;
export type RectifiableField = (typeof RECTIFIABLE_FIELDS)[number];

export const RECTIFIABLE_FIELD_NAMES: Record<RectifiableField, string> = {
  name: 'Name',
  date_of_birth: 'Date of birth',
  address: 'Address',
  email: 'E-mail address',
  phone: 'Phone number',
  salary: 'Salary',
  pps_number: 'PPS number',
  date_joined: 'Date joined',
  dependants: 'Dependants',
  beneficiaries: 'Beneficiaries',
};

/** The most recipients one correction records: more is a list to keep outside the register. */
export const MAX_RECIPIENTS = 20;

export const RECTIFICATION_RULES = {
  rectification: law(
    'GDPR Art. 16: the data subject has the right to have inaccurate personal data concerning them rectified without undue delay',
  ),
  recipientsTold: law(
    'GDPR Art. 19: the controller communicates any rectification to each recipient to whom the personal data have been disclosed, unless this proves impossible or involves disproportionate effort',
  ),
  fieldsNamed: productPolicy(
    'A rectification request is completed by naming at least one corrected detail from a fixed list, so the audit log keeps the names and never the values',
  ),
  recipientsProposed: productPolicy(
    'The service proposes the recipients it knows of (the member’s employer where its accounts can read the member, and the documents issued about the member); the firm confirms them or adds others',
  ),
  toldOn: productPolicy(
    'A recipient was told on a day not after today and not before the request was received',
  ),
} as const satisfies Record<string, RuleSource>;

export type ToldOnRefusal = 'date_in_future' | 'before_received';

/** Why a day a recipient was told on is refused, or null when it stands. */
export function toldOnRefusal(
  toldOn: string,
  receivedOn: string,
  today: string,
): ToldOnRefusal | null {
  if (toldOn > today) return 'date_in_future';
  if (toldOn < receivedOn) return 'before_received';
  return null;
}
