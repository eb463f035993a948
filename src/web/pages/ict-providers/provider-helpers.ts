import {
  ICT_SERVICE_TYPES,
  type IctProviderInput,
  type IctProviderUpdate,
  type IctProviderView,
  type IctServiceType,
  PROVIDER_IDENTIFIER_TYPES,
  type ProviderIdentifierType,
  providerIdentifierProblem,
} from '../../../contracts/dora';
import { formatDate } from '../../format';

/**
 * What the page of the firm's ICT providers reads and sends, apart from its components
 * (docs/decisions/0139-dora-ict-incidents.md, "The firm's other ICT providers").
 */

/** A service type in the words of ITS (EU) 2024/2956 Annex III, with its code: "Cloud services: SaaS (S19)". */
export function serviceTypeInWords(code: IctServiceType): string {
  return `${ICT_SERVICE_TYPES[code]} (${code})`;
}

/** The choices of the service type field, S01 to S19 in the annex's order. */
export const SERVICE_TYPE_CHOICES = (Object.keys(ICT_SERVICE_TYPES) as IctServiceType[]).map(
  (code) => ({ value: code, label: serviceTypeInWords(code) }),
);

/**
 * Whether the arrangement runs: an end date is the last day of the service, so an arrangement
 * ending today is current until tomorrow; one whose end is recorded ahead says when it ends.
 */
export function arrangementInWords(
  provider: Pick<IctProviderView, 'endedOn'>,
  today: string,
): { ended: boolean; words: string } {
  if (provider.endedOn === null) return { ended: false, words: 'Current' };
  if (provider.endedOn < today) {
    return { ended: true, words: `Ended on ${formatDate(provider.endedOn)}` };
  }
  return { ended: false, words: `Current, ends on ${formatDate(provider.endedOn)}` };
}

/** The form's values, named as the API names its fields so that its refusals land under them. */
export interface ProviderValues {
  name: string;
  /** `''` for neither an LEI nor an EUID. */
  identifierType: ProviderIdentifierType | '';
  identifier: string;
  country: string;
  serviceType: IctServiceType | '';
  contractReference: string;
  /** `YYYY-MM-DD`, `''`, or a day typed that could not be read (IrishDateInput). */
  startedOn: string;
  endedOn: string;
  supportsCriticalFunction: boolean;
}

const NO_IDENTIFIER = { value: '', label: 'Neither' };
export const IDENTIFIER_TYPE_CHOICES = [
  NO_IDENTIFIER,
  ...PROVIDER_IDENTIFIER_TYPES.map((type) => ({ value: type, label: type })),
];

/** A new provider's form, or a known one's as it stands. */
export function valuesOf(provider: IctProviderView | null): ProviderValues {
  return {
    name: provider?.name ?? '',
    identifierType: provider?.identifierType ?? '',
    identifier: provider?.identifier ?? '',
    country: provider?.country ?? 'IE',
    serviceType: provider?.serviceType ?? '',
    contractReference: provider?.contractReference ?? '',
    startedOn: provider?.startedOn ?? '',
    endedOn: provider?.endedOn ?? '',
    supportsCriticalFunction: provider?.supportsCriticalFunction ?? false,
  };
}

const typed = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * The fields both bodies share. A country is upper-cased, as its two letters are the same
 * country either way; nothing else is altered, so the API judges what was typed.
 */
function shared(values: ProviderValues) {
  return {
    name: values.name,
    country: values.country.trim().toUpperCase(),
    serviceType: values.serviceType === '' ? undefined : values.serviceType,
    contractReference: values.contractReference,
    startedOn: values.startedOn,
    supportsCriticalFunction: values.supportsCriticalFunction,
  };
}

/** The body of `POST /api/dora/ict-providers`: what is left empty is left out. */
export function createBody(values: ProviderValues) {
  return {
    ...shared(values),
    identifier: typed(values.identifier) ?? undefined,
    identifierType: values.identifierType === '' ? undefined : values.identifierType,
    endedOn: typed(values.endedOn) ?? undefined,
  } as IctProviderInput;
}

/** The body of `PATCH /api/dora/ict-providers/:id`: what is left empty is cleared. */
export function updateBody(values: ProviderValues) {
  return {
    ...shared(values),
    identifier: typed(values.identifier),
    identifierType: values.identifierType === '' ? null : values.identifierType,
    endedOn: typed(values.endedOn),
  } as IctProviderUpdate;
}

/** The identifier's shape, checked in the browser by the rule the service applies. */
export function identifierError(values: ProviderValues): string | null {
  return providerIdentifierProblem(
    typed(values.identifier),
    values.identifierType === '' ? null : values.identifierType,
  );
}
