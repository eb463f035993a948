import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/organisation.js';

export const brokerParams = z.object({ brokerId: idText });
