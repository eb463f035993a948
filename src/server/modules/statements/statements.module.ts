import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import type { GeneratedDocuments } from '../documents/index.js';
import { assumptionsRoutes } from './assumptions.routes.js';
import { type AssumptionsService, createAssumptionsService } from './assumptions.service.js';
import { runsRoutes } from './runs.routes.js';
import { createRunsService, type RunsService } from './runs.service.js';
import { statementPdf } from './statement.pdf.js';
import { createStatementWorker, type StatementWorker } from './statement-worker.service.js';

export interface StatementsModuleParts
  extends Pick<
    PlatformParts,
    'database' | 'audit' | 'now' | 'outbox' | 'onEmailQueued' | 'publicBaseUrl'
  > {
  /** Where issued statements are kept: the documents' store. */
  documents: GeneratedDocuments;
  onWorkFailed: (error: unknown) => void;
}

/** Pension Benefit Statements (docs/decisions/0141-pension-benefit-statements.md). */
export function createStatementsModule(parts: StatementsModuleParts): ServerModule<{
  assumptions: AssumptionsService;
  runs: RunsService;
  worker: StatementWorker;
}> {
  const { database, audit, now } = parts;
  const assumptions = createAssumptionsService({ database, audit, now });
  const worker = createStatementWorker({ database, audit, now, render: statementPdf });
  const runs = createRunsService({ ...parts, worker });
  return {
    services: { assumptions, runs, worker },
    routes: async (app) => {
      await app.register(assumptionsRoutes, { assumptions });
      await app.register(runsRoutes, { runs });
    },
  };
}
