import type { z } from 'zod';
import { auditFilters } from '../../../contracts/audit.js';
import { pageQuery } from '../../../contracts/pages.js';

export * from '../../../contracts/audit.js';

export const auditQuery = pageQuery.extend(auditFilters.shape);
export type AuditQuery = z.infer<typeof auditQuery>;
