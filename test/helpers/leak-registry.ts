/**
 * What every test app of this file said: its log lines and the bodies it answered with. The leak
 * scan (test/setup/leak-scan.ts) searches them after the file's tests for PPS numbers.
 */
export const evidence = {
  logs: [] as Array<() => string>,
  bodies: [] as string[],
};

/** The one answer that may carry a PPS number in plain text (decisions.md §4). */
export const REVEAL_PATH = /^\/api\/members\/[^/]+\/pps\/reveal$/;

/** Anything shaped like a PPS number (domain.md), as it could appear inside other text. */
const PPS_SHAPE = /(?<![0-9])[0-9]{7}[A-W][ABHWTX]?(?![A-Za-z0-9])/g;

/** The known numbers found in logs or bodies, and anything PPS-shaped in the logs. */
export function findPpsLeaks(
  logText: string,
  bodies: string,
  known: Iterable<string>,
): { known: string[]; shaped: string[] } {
  return {
    known: [...known].filter((number) => logText.includes(number) || bodies.includes(number)),
    shaped: logText.match(PPS_SHAPE) ?? [],
  };
}
