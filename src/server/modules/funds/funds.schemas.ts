import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/funds.js';

export const idParams = z.object({ id: idText });
