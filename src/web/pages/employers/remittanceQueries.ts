import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import { addToMonth, monthOfDay } from '../../../contracts/remittance-rules';
import { DEFAULT_REMITTANCE_MONTHS } from '../../../contracts/remittances';
import { api } from '../../api/client';

/**
 * What the remittance pages read (docs/decisions/0136-contribution-remittance.md). Every read of
 * an employer's remittance sits under one key, so a payment recorded or removed refreshes them
 * all: the calendar on the employer's page and the months the employer's home page names.
 */
export const remittanceKey = (employerId: string) =>
  ['employers', employerId, 'remittance'] as const;

/** This month in Ireland, `YYYY-MM`: the last month of the calendar when it opens. */
export const thisMonth = () => monthOfDay(todayInIreland(new Date()));

/** The first month of the calendar window ending with `to`. */
export const calendarFrom = (to: string) => addToMonth(to, 1 - DEFAULT_REMITTANCE_MONTHS);

/** The employer's calendar for the months ending with `to`, under the key every reader shares. */
export const remittanceCalendarQuery = (employerId: string, to: string) => {
  const from = calendarFrom(to);
  return {
    queryKey: [...remittanceKey(employerId), 'calendar', from, to] as const,
    queryFn: () =>
      api(apiRoutes.remittances.ofEmployer, { params: { id: employerId }, query: { from, to } }),
  };
};
