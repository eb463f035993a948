import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/auto-enrolment.js';

export const employerParams = z.object({ id: idText });
export const uploadParams = z.object({ id: idText, importId: idText });
