import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/dora.js';

export const idParams = z.object({ id: idText });
