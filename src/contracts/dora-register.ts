import { z } from 'zod';
import type { IctServiceType } from './dora.js';

/**
 * The register of information of DORA Art. 28(3) in the templates of Commission Implementing
 * Regulation (EU) 2024/2956, Annex I, one CSV file a template, each headed by the column codes of
 * the annex (c0010, c0020, ...), exported as one ZIP (docs/decisions/0139-dora-ict-incidents.md,
 * "The register of information", which says which column is filled from what and which codes
 * could not be checked against the annex's own text).
 *
 * The columns are listed here once: the export writes them and the tests read them back.
 * Each column's comment is its name in the annex. B_02.03, B_03.01 and B_03.03 have two columns
 * each: the boolean "link" column the ESAs' reporting taxonomy adds to them (c0030, c0030,
 * c0031) is not in the annex, and the decision says how that was established.
 */
export const REGISTER_TEMPLATES = {
  /** The entity maintaining the register of information. */
  'B_01.01': [
    'c0010', // LEI of the entity maintaining the register of information
    'c0020', // Name of the entity
    'c0030', // Country of the entity
    'c0040', // Type of entity
    'c0050', // Competent authority
    'c0060', // Date of the reporting
  ],
  /** The entities within the scope of the register. */
  'B_01.02': [
    'c0010', // LEI of the entity
    'c0020', // Name of the entity
    'c0030', // Country of the entity
    'c0040', // Type of entity
    'c0050', // Hierarchy of the entity within the group
    'c0060', // LEI of the direct parent undertaking of the entity
    'c0070', // Date of last update
    'c0080', // Date of integration in the register of information
    'c0090', // Date of deletion in the register of information
    'c0100', // Currency
    'c0110', // Value of total assets
  ],
  /** Branches. */
  'B_01.03': [
    'c0010', // Identification code of the branch
    'c0020', // LEI of the financial entity head office of the branch
    'c0030', // Name of the branch
    'c0040', // Country of the branch
  ],
  /** Contractual arrangements: general information. */
  'B_02.01': [
    'c0010', // Contractual arrangement reference number
    'c0020', // Type of contractual arrangement
    'c0030', // Overarching contractual arrangement reference number
    'c0040', // Currency of the amount reported in c0050
    'c0050', // Annual expense or estimated cost of the contractual arrangement
  ],
  /** Contractual arrangements: specific information. */
  'B_02.02': [
    'c0010', // Contractual arrangement reference number
    'c0020', // LEI of the entity making use of the ICT service(s)
    'c0030', // Identification code of the ICT third-party service provider
    'c0040', // Type of code to identify the ICT third-party service provider
    'c0050', // Function identifier
    'c0060', // Type of ICT services
    'c0070', // Start date of the contractual arrangement
    'c0080', // End date of the contractual arrangement
    'c0090', // Reason of the termination or ending of the contractual arrangement
    'c0100', // Notice period for the financial entity making use of the ICT service(s)
    'c0110', // Notice period for the ICT third-party service provider
    'c0120', // Country of the governing law of the contractual arrangement
    'c0130', // Country of provision of the ICT services
    'c0140', // Storage of data
    'c0150', // Location of the data at rest (storage)
    'c0160', // Location of management of the data (processing)
    'c0170', // Sensitiveness of the data stored by the ICT third-party service provider
    'c0180', // Level of reliance on the ICT service supporting the critical or important function
  ],
  /** Intra-group contractual arrangements. */
  'B_02.03': [
    'c0010', // Contractual arrangement reference number
    'c0020', // Contractual arrangement linked to the one in c0010
  ],
  /** Entities signing the contractual arrangements for receiving ICT services. */
  'B_03.01': [
    'c0010', // Contractual arrangement reference number
    'c0020', // LEI of the entity signing the contractual arrangement
  ],
  /** ICT third-party service providers signing the contractual arrangements. */
  'B_03.02': [
    'c0010', // Contractual arrangement reference number
    'c0020', // Identification code of the ICT third-party service provider
    'c0030', // Type of code to identify the ICT third-party service provider
  ],
  /** Entities signing the contractual arrangements for providing ICT services (intra-group). */
  'B_03.03': [
    'c0010', // Contractual arrangement reference number
    'c0020', // LEI of the entity providing ICT services
  ],
  /** Entities making use of the ICT services. */
  'B_04.01': [
    'c0010', // Contractual arrangement reference number
    'c0020', // LEI of the entity making use of the ICT service(s)
    'c0030', // Nature of the entity making use of the ICT service(s)
    'c0040', // Identification code of the branch
  ],
  /** ICT third-party service providers. */
  'B_05.01': [
    'c0010', // Identification code of the ICT third-party service provider
    'c0020', // Type of code to identify the ICT third-party service provider
    'c0030', // Additional identification code of the ICT third-party service provider
    'c0040', // Type of the additional identification code
    'c0050', // Legal name of the ICT third-party service provider
    'c0060', // Name of the ICT third-party service provider in Latin alphabet
    'c0070', // Type of person of the ICT third-party service provider
    'c0080', // Country of the ICT third-party service provider's headquarters
    'c0090', // Currency of the amount reported in c0100
    'c0100', // Total annual expense or estimated cost of the ICT third-party service provider
    'c0110', // Identification code of the provider's ultimate parent undertaking
    'c0120', // Type of code to identify the provider's ultimate parent undertaking
  ],
  /** ICT service supply chains. */
  'B_05.02': [
    'c0010', // Contractual arrangement reference number
    'c0020', // Type of ICT services
    'c0030', // Identification code of the ICT third-party service provider
    'c0040', // Type of code to identify the ICT third-party service provider
    'c0050', // Rank
    'c0060', // Identification code of the recipient of sub-contracted ICT services
    'c0070', // Type of code to identify the recipient of sub-contracted ICT services
  ],
  /** Functions identification. */
  'B_06.01': [
    'c0010', // Function identifier
    'c0020', // Licenced activity
    'c0030', // Function name
    'c0040', // LEI of the financial entity
    'c0050', // Criticality or importance assessment
    'c0060', // Reasons for criticality or importance
    'c0070', // Date of the last assessment of criticality or importance
    'c0080', // Recovery time objective of the function
    'c0090', // Recovery point objective of the function
    'c0100', // Impact of discontinuing the function
  ],
  /** Assessments of the ICT services. */
  'B_07.01': [
    'c0010', // Contractual arrangement reference number
    'c0020', // Identification code of the ICT third-party service provider
    'c0030', // Type of code to identify the ICT third-party service provider
    'c0040', // Type of ICT services
    'c0050', // Substitutability of the ICT third-party service provider
    // Reason if the ICT third-party service provider is considered not substitutable or
    // difficult to be substitutable
    'c0060',
    'c0070', // Date of the last audit on the ICT third-party service provider
    'c0080', // Existence of an exit plan
    'c0090', // Possibility of reintegration of the contracted ICT service
    'c0100', // Impact of discontinuing the ICT services
    'c0110', // Are there alternative ICT third-party service providers identified?
    'c0120', // Identification of alternative ICT third-party service providers
  ],
  /**
   * Definitions from the entities making use of the ICT services: the entity's own meaning of
   * each option of six closed lists, in the annex's order: B_02.01 c0020 (three options, c0010
   * to c0030 here), B_02.02 c0170 (three), B_06.01 c0100 (three; the annex's rows cite it as
   * 0110, its number before B_06.01 was renumbered), B_07.01 c0050 (four), c0090 (three) and
   * c0100 (three). The annex lays these out as nineteen rows; this is the one-row form, one column
   * an option, which the decision records as not checked against the annex's own columns.
   */
  'B_99.01': Array.from(
    { length: 19 },
    (_, index) => `c${String((index + 1) * 10).padStart(4, '0')}`,
  ),
} as const satisfies Record<string, readonly string[]>;

export type RegisterTemplate = keyof typeof REGISTER_TEMPLATES;
export const REGISTER_TEMPLATE_CODES = Object.keys(REGISTER_TEMPLATES) as RegisterTemplate[];

/** A row of a template: its cells by column code; a column left out is written empty. */
export type RegisterRow = Partial<Record<string, string>>;

/** The file of a template inside the ZIP: `B_05.02.csv`. */
export const registerFileName = (template: RegisterTemplate) => `${template}.csv`;

/**
 * The platform's own vendors, each a subcontractor of the platform (rank 2 in B_05.02), with the
 * ICT service type of Annex III it provides (product policy: the type each kind of vendor
 * sells as this platform uses it).
 */
export const PLATFORM_VENDOR_ROLES = {
  ai: { label: 'AI provider', serviceType: 'S19' },
  mail: { label: 'E-mail delivery', serviceType: 'S19' },
  storage: { label: 'Document storage', serviceType: 'S17' },
  database: { label: 'Database host', serviceType: 'S18' },
  errorTracking: { label: 'Error tracking', serviceType: 'S19' },
} as const satisfies Record<string, { label: string; serviceType: IctServiceType }>;
export type PlatformVendorRole = keyof typeof PLATFORM_VENDOR_ROLES;

/** What the platform provides each firm: its whole pension administration, as software. */
export const PLATFORM_SERVICE_TYPE: IctServiceType = 'S19';

/**
 * Values of the annex's closed lists the export writes, in the annex's words. The ZIP is the
 * register as the annex lays it out, not the ESAs' xBRL-CSV reporting package, whose taxonomy
 * codes these options differently: the firm's filing tool converts it.
 */
export const REGISTER_OPTIONS = {
  /** B_01.01 c0040, B_01.02 c0040. */
  iorp: 'Institutions for occupational retirement provision',
  /** B_02.01 c0020. */
  standalone: 'Standalone arrangement',
  /** B_04.01 c0030. */
  notABranch: 'Not a branch',
  /** B_05.01 c0070. */
  legalPerson: 'Legal person, excluding individual acting in a business capacity',
  /** B_02.02 c0140. */
  yes: 'Yes',
} as const;

/** The currency the register's amounts are in: the euro, for an Irish IORP. */
export const REGISTER_CURRENCY = 'EUR';

/** The competent authority of an Irish IORP under DORA (Art. 46(f); B_01.01 c0050). */
export const COMPETENT_AUTHORITY = 'Pensions Authority';

/**
 * `GET /api/dora/register-of-information/entities`: the entities the register names (B_01.01,
 * B_01.02), each with its LEI or null while none is given, so that the page offering the
 * download can say which lack one.
 */
export const registerEntitiesView = z.object({
  firm: z.object({ id: z.string(), name: z.string(), lei: z.string().nullable() }),
  schemes: z.array(z.object({ id: z.string(), name: z.string(), lei: z.string().nullable() })),
});
export type RegisterEntitiesView = z.infer<typeof registerEntitiesView>;
