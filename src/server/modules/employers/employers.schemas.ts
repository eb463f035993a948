import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/organisation.js';

export const employerParams = z.object({ id: idText });
