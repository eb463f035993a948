/** The lifecycle module's public face: all that other modules and the composition root may import from it. */
export { type LeavingStatementFacts, leavingStatementPdf } from './leaving-statement.pdf.js';
export { createLifecycleModule } from './lifecycle.module.js';
export type { LifecycleService } from './lifecycle.service.js';
