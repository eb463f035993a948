import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/members.js';

export const memberParams = z.object({ id: idText });
export const schemeMembersParams = z.object({ id: idText });
