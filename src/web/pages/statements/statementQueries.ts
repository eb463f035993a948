import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { dateInWords } from '../../../contracts/irish-dates';
import type { RunStatus, StatementRunView } from '../../../contracts/statements';
import { api } from '../../api/client';
import { downloadAttachment } from '../../api/download';

/**
 * What the statement pages read (docs/decisions/0141-pension-benefit-statements.md): a scheme's
 * runs, one run with its statements, and the PDF of a statement as its member sees it.
 */

export const schemeRunsKey = (schemeId: string) => ['schemes', schemeId, 'statement-runs'] as const;
export const runKey = (runId: string) => ['statement-runs', runId] as const;
export const runStatementsKey = (runId: string) => ['statement-runs', runId, 'statements'] as const;
export const runPaperKey = (runId: string) => ['statement-runs', runId, 'paper'] as const;
/** The projection assumption sets a run may use: the platform's and the firm's own. */
export const ASSUMPTION_SETS_KEY = ['statement-assumptions'] as const;
export const memberStatementsKey = (memberId: string) =>
  ['members', memberId, 'statements'] as const;

/** How often a run still being prepared is read again, to show its progress. */
const PROGRESS_POLL_MS = 1500;

/** Whether the run's statements are still being made in the background. */
export const inProgress = (status: RunStatus) => status === 'queued' || status === 'running';

/** A run, read again every moment while its statements are being made. */
export function useRun(runId: string) {
  return useQuery({
    queryKey: runKey(runId),
    queryFn: () => api(apiRoutes.statementRuns.get, { params: { id: runId } }),
    refetchInterval: (query) =>
      query.state.data && inProgress(query.state.data.status) ? PROGRESS_POLL_MS : false,
  });
}

/** A run's name in words: its information date. */
export const runName = (run: Pick<StatementRunView, 'informationDate'>) =>
  `Statements at ${dateInWords(run.informationDate)}`;

/**
 * A statement's PDF, exactly as its member gets it, handed to the browser as a file. Read with the
 * session through the route table, so a refusal reads as a message on the page.
 */
export function openStatementPdf(statementId: string): Promise<void> {
  return downloadAttachment(
    apiRoutes.memberStatements.pdf,
    { params: { id: statementId } },
    {
      accept: 'application/pdf',
      fallbackName: 'pension-benefit-statement.pdf',
      failure: 'The statement could not be opened',
    },
  );
}
