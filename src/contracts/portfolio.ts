import { z } from 'zod';
import { OBLIGATION_STATUSES } from './governance.js';
import { SCHEME_TYPES } from './organisation.js';
import { SCHEME_STATUSES } from './scheme-wind-up.js';
import { text } from './text.js';

/**
 * The firm's portfolio lists (docs/decisions/0144-portfolio-lists.md): each employer and each
 * scheme within reach with how many members it has, its governance standing as the one assessment
 * gives it (scheme-standing.ts, `assessCompliance`) and the latest pay period received, composed on
 * the server in one request a page (docs/decisions/0118-pages-composed-on-the-server.md).
 */

/** The most rows one portfolio answer holds; beyond it the list says it shows the first by name. */
export const PORTFOLIO_MAX_ROWS = 1000;

/**
 * A scheme's or an employer's governance standing, or null where there is none to show: a PRSA or
 * an RAC held as a contract keeps no registers, and not every reader may read the standing.
 */
const standing = z.enum(OBLIGATION_STATUSES).nullable();

/** The latest pay period with contributions, `YYYY-MM`, or null when nothing has been received. */
const lastPeriod = z.string().nullable();

export const portfolioScheme = z.object({
  id: z.string(),
  brokerId: z.string(),
  employerId: z.string(),
  employerName: z.string(),
  name: z.string(),
  type: z.enum(SCHEME_TYPES),
  /** A wound-up scheme has no standing: its duties ended with it. */
  status: z.enum(SCHEME_STATUSES),
  memberCount: z.number().int(),
  governance: standing,
  lastPeriod,
});
export type PortfolioScheme = z.infer<typeof portfolioScheme>;

export const portfolioEmployer = z.object({
  id: z.string(),
  brokerId: z.string(),
  name: z.string(),
  schemeCount: z.number().int(),
  memberCount: z.number().int(),
  /** The worst standing among its schemes that keep registers. */
  governance: standing,
  /** The latest pay period received for any of its schemes. */
  lastPeriod,
});
export type PortfolioEmployer = z.infer<typeof portfolioEmployer>;

/**
 * The whole list in one answer, in the shape of a page with no next one, so a table sorts every
 * row; `truncated` says the reach holds more than `PORTFOLIO_MAX_ROWS`, the first of them by name.
 */
const portfolioOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.null(), truncated: z.boolean() });

export const portfolioSchemes = portfolioOf(portfolioScheme);
export type PortfolioSchemes = z.infer<typeof portfolioSchemes>;
export const portfolioEmployers = portfolioOf(portfolioEmployer);
export type PortfolioEmployers = z.infer<typeof portfolioEmployers>;

/** The schemes' list, of one employer when `employerId` is given. */
export const portfolioSchemesQuery = z.object({
  employerId: text({ max: 64, trim: false }).optional(),
});
export type PortfolioSchemesQuery = z.infer<typeof portfolioSchemesQuery>;
