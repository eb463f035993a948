import { csvLine } from '../../../contracts/csv.js';
import {
  COMPETENT_AUTHORITY,
  PLATFORM_SERVICE_TYPE,
  PLATFORM_VENDOR_ROLES,
  type PlatformVendorRole,
  REGISTER_CURRENCY,
  REGISTER_OPTIONS,
  REGISTER_TEMPLATE_CODES,
  REGISTER_TEMPLATES,
  type RegisterRow,
  type RegisterTemplate,
} from '../../../contracts/dora-register.js';
import type { IctParty } from '../../platform/config/config.js';

/**
 * What the register of information is made from (docs/decisions/0139-dora-ict-incidents.md, "The
 * register of information"): the firm, its schemes within DORA, the platform's operator and the
 * vendors it uses, and the firm's other ICT providers.
 */
export interface RegisterFacts {
  /** The day of the export, in Ireland (B_01.01 c0060). */
  today: string;
  /** The firm, with its LEI, null until given (B_01.01 c0010). */
  firm: { id: string; name: string; lei: string | null; joinedOn: string };
  /** Its schemes within DORA, each with its LEI, null until given (B_01.02 c0010). */
  schemes: Array<{ name: string; lei: string | null; addedOn: string; updatedOn: string }>;
  operator: CompleteParty;
  vendors: Array<{ role: PlatformVendorRole; party: CompleteParty }>;
  providers: Array<{
    name: string;
    identifier: string | null;
    identifierType: string | null;
    country: string;
    serviceType: string;
    contractReference: string;
    startedOn: string;
    endedOn: string | null;
    supportsCriticalFunction: boolean;
  }>;
}

export interface CompleteParty {
  name: string;
  lei: string;
  country: string;
}

/** The settings a party lacks, by name; none when it is complete. */
export function missingOf(party: IctParty): string[] {
  return (['name', 'lei', 'country'] as const)
    .filter((field) => party[field] === null)
    .map((field) => party.variables[field]);
}

/** The date the annex asks for where there is none: no end date, or not deleted. */
const OPEN_ENDED = '9999-12-31';

interface Arrangement {
  reference: string;
  provider: { code: string; codeType: string; name: string; country: string };
  serviceType: string;
  startedOn: string;
  endedOn: string | null;
  storesData: boolean;
  supportsCriticalFunction: boolean;
}

/**
 * The firm's arrangement with the platform, named by the platform's own reference for it (the
 * firm's id), since no contract number of the firm's is held.
 */
export const platformArrangementReference = (firmId: string) => `platform-${firmId}`;

/** Every template's rows, by template, from the facts; a template the service holds nothing for has none. */
export function registerRows(facts: RegisterFacts): Record<RegisterTemplate, RegisterRow[]> {
  const rows = Object.fromEntries(
    REGISTER_TEMPLATE_CODES.map((template) => [template, [] as RegisterRow[]]),
  ) as Record<RegisterTemplate, RegisterRow[]>;
  const leiCode = (party: CompleteParty) => ({
    code: party.lei,
    codeType: 'LEI',
    name: party.name,
    country: party.country,
  });
  const platform: Arrangement = {
    reference: platformArrangementReference(facts.firm.id),
    provider: leiCode(facts.operator),
    serviceType: PLATFORM_SERVICE_TYPE,
    startedOn: facts.firm.joinedOn,
    endedOn: null,
    // The platform keeps the schemes' records, and it runs their administration.
    storesData: true,
    supportsCriticalFunction: true,
  };
  const others: Arrangement[] = facts.providers.map((provider) => ({
    reference: provider.contractReference,
    provider: {
      code: provider.identifier ?? '',
      codeType: provider.identifierType ?? '',
      name: provider.name,
      country: provider.country,
    },
    serviceType: provider.serviceType,
    startedOn: provider.startedOn,
    endedOn: provider.endedOn,
    storesData: false,
    supportsCriticalFunction: provider.supportsCriticalFunction,
  }));
  const arrangements = [platform, ...others];
  const users = entitiesUsing(facts.schemes);

  rows['B_01.01'].push({
    c0010: facts.firm.lei ?? '',
    c0020: facts.firm.name,
    c0030: 'IE',
    c0040: REGISTER_OPTIONS.iorp,
    c0050: COMPETENT_AUTHORITY,
    c0060: facts.today,
  });
  for (const scheme of facts.schemes) {
    rows['B_01.02'].push({
      c0010: scheme.lei ?? '',
      c0020: scheme.name,
      c0030: 'IE',
      c0040: REGISTER_OPTIONS.iorp,
      c0070: scheme.updatedOn,
      c0080: scheme.addedOn,
      c0090: OPEN_ENDED,
      c0100: REGISTER_CURRENCY,
    });
  }
  for (const arrangement of arrangements) {
    const { reference, provider } = arrangement;
    rows['B_02.01'].push({ c0010: reference, c0020: REGISTER_OPTIONS.standalone });
    rows['B_03.01'].push({ c0010: reference });
    rows['B_03.02'].push({ c0010: reference, c0020: provider.code, c0030: provider.codeType });
    // A row for each scheme making use of the arrangement: every scheme in the register uses
    // the platform, and nothing records which of them another provider serves, so all of them.
    for (const user of users) {
      rows['B_02.02'].push({
        c0010: reference,
        c0020: user,
        c0030: provider.code,
        c0040: provider.codeType,
        c0060: arrangement.serviceType,
        c0070: arrangement.startedOn,
        c0080: arrangement.endedOn ?? OPEN_ENDED,
        c0130: provider.country,
        ...(arrangement.storesData ? { c0140: REGISTER_OPTIONS.yes } : {}),
      });
      rows['B_04.01'].push({ c0010: reference, c0020: user, c0030: REGISTER_OPTIONS.notABranch });
    }
    rows['B_05.02'].push({
      c0010: reference,
      c0020: arrangement.serviceType,
      c0030: provider.code,
      c0040: provider.codeType,
      c0050: '1',
    });
    if (arrangement.supportsCriticalFunction) {
      rows['B_07.01'].push({
        c0010: reference,
        c0020: provider.code,
        c0030: provider.codeType,
        c0040: arrangement.serviceType,
      });
    }
  }
  // The platform's vendors are its subcontractors for the whole of its service: rank 2, the
  // operator the recipient of what they provide.
  for (const vendor of facts.vendors) {
    rows['B_05.02'].push({
      c0010: platform.reference,
      c0020: PLATFORM_VENDOR_ROLES[vendor.role].serviceType,
      c0030: vendor.party.lei,
      c0040: 'LEI',
      c0050: '2',
      c0060: facts.operator.lei,
      c0070: 'LEI',
    });
  }
  // Each provider once: one with an identifier by it, one without by its name and country.
  const seen = new Set<string>();
  const providers = [
    platform.provider,
    ...facts.vendors.map((vendor) => leiCode(vendor.party)),
    ...others.map((arrangement) => arrangement.provider),
  ];
  for (const provider of providers) {
    const key = provider.code
      ? `${provider.codeType}:${provider.code}`
      : `${provider.name}:${provider.country}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows['B_05.01'].push({
      c0010: provider.code,
      c0020: provider.codeType,
      c0050: provider.name,
      c0070: REGISTER_OPTIONS.legalPerson,
      c0080: provider.country,
    });
  }
  return rows;
}

/**
 * The LEIs to write as the entities making use of an arrangement (B_02.02 and B_04.01 c0020):
 * each scheme's once, in the register's order, and one empty cell standing for every scheme
 * without one, or for the firm's use when no scheme is in the register, so that no arrangement
 * goes without a row and no two rows are alike.
 */
export function entitiesUsing(schemes: ReadonlyArray<{ lei: string | null }>): string[] {
  const known = [...new Set(schemes.flatMap((scheme) => (scheme.lei ? [scheme.lei] : [])))];
  const anyWithout = schemes.length === 0 || schemes.some((scheme) => !scheme.lei);
  return anyWithout ? [...known, ''] : known;
}

/** A template as CSV: its column codes, then its rows, each cell in its column or empty. */
export function templateCsv(template: RegisterTemplate, rows: readonly RegisterRow[]): string {
  const columns: readonly string[] = REGISTER_TEMPLATES[template];
  return [columns, ...rows.map((row) => columns.map((column) => row[column] ?? ''))]
    .map(csvLine)
    .join('');
}
