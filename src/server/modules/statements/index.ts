/** The statements module's public face: all that other modules and the composition root may import from it. */

export type { RunsService } from './runs.service.js';
export { statementPdf } from './statement.pdf.js';
export { statementRunsJob } from './statement-runs.job.js';
export { createStatementWorker, type StatementWorker } from './statement-worker.service.js';
export { createStatementsModule } from './statements.module.js';
