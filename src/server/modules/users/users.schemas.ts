import { z } from 'zod';
import type {
  BrokerUserInput,
  ColleagueInput,
  EmployerUserInput,
} from '../../../contracts/organisation.js';
import { pageQuery } from '../../../contracts/pages.js';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/accounts.js';

export {
  brokerUserInput,
  colleagueInput,
  type EmployerUserInput,
  employerUserInput,
} from '../../../contracts/organisation.js';
export type { ColleagueInput };
export type NewUserInput = BrokerUserInput | EmployerUserInput | ColleagueInput;

export const userParams = z.object({ id: idText });
export const userListQuery = pageQuery;
