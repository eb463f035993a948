import { Badge } from '@mantine/core';
import type { DataRequestClockState } from '../../../contracts/data-request-rules';
import type { DataRequestView } from '../../../contracts/data-requests';

/**
 * The colour of each clock, always beside its words. Keyed by the rule module's own type, so a
 * state added there fails the build here until it has its colour.
 */
const CLOCK_COLOURS: Record<DataRequestClockState, string> = {
  due: 'blue',
  due_today: 'orange',
  overdue: 'red',
  answered: 'green',
  answered_late: 'orange',
};

/** A request's clock as its words beside a coloured dot: the colour is never the only sign. */
export function DataRequestClockBadge({ clock }: { clock: DataRequestView['clock'] }) {
  return (
    <Badge color={CLOCK_COLOURS[clock.state]} variant="dot" miw="max-content">
      {clock.words}
    </Badge>
  );
}
