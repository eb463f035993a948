import { todayInIreland } from '../../../contracts/irish-dates.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { ValidationError } from '../../platform/errors.js';

/**
 * The one member rule that needs a clock, applied by the service with its own (`now`), so that
 * the day is the day in Ireland at the request's time and a test can set that time.
 */
export function refuseFutureBirth(dateOfBirth: string | undefined, at: Date): void {
  if (dateOfBirth !== undefined && dateOfBirth > todayInIreland(at)) {
    throw new ValidationError([
      { path: 'dateOfBirth', code: 'custom', message: FIELD_MESSAGES.bornInFuture },
    ]);
  }
}
