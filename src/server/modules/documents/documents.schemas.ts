import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/documents.js';

export const idParams = z.object({ id: idText });

/** The file route's path: the document and the signed token that opens it. */
export const fileParams = z.object({
  documentId: z.string().min(1).max(64),
  token: z.string().min(1).max(256),
});

/** The upload's body is the multipart stream itself, read by the service as it arrives. */
export const multipartBody = z
  .unknown()
  .describe(
    'multipart/form-data: `file` (PDF, DOCX, PNG or JPEG, at most 25 MiB), `documentType`, and optionally `memberFacing` (true or false), `title` and `memberId` (the member a benefit statement, or another document about one member, is for: required for `benefit_statement`)',
  );
