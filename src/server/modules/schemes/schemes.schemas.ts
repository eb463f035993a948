import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/organisation.js';

export const schemeParams = z.object({ id: idText });
