import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/portal.js';

export const portalParams = z.object({ id: idText });
