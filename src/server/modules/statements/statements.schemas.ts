import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/statements.js';

export const idParams = z.object({ id: idText });
