import type { DraftKind } from '../../../contracts/ai.js';
import type { DocumentType } from '../../../contracts/documents.js';
import { openTaggedPdf, pdfBytes } from '../../platform/pdf/tagged-pdf.js';
import { type DraftRequest, titleOf } from './draft-templates.rules.js';

/**
 * The document type an issued draft is stored as: the type the governance register's entries
 * link to (contracts/governance.ts, LINKED_DOCUMENT_TYPE), so the issued text can be linked there.
 */
export const ISSUED_DOCUMENT_TYPE: Record<DraftKind, DocumentType> = {
  written_policy: 'written_policy',
  ora_outline: 'ora_report',
  kfh_appointment_letter: 'kfh_appointment',
};

/**
 * The stored name: the draft's kind (and policy kind) and the day in Ireland it was issued, no
 * scheme or person's name. Issued again the same day, the same name takes the next version.
 */
export function issuedFilename(request: DraftRequest, issuedOn: string): string {
  const kind = [request.kind, request.policyKind].filter(Boolean).join('-').replace(/_/g, '-');
  return `${kind}-${issuedOn}.pdf`;
}

/**
 * The approved text as a tagged PDF: its title as the H1, each block of lines between blank lines
 * a paragraph, word for word as it was approved (only approved text issues:
 * docs/decisions/0067-ai-drafts.md).
 */
export async function renderIssuedDraft(
  request: DraftRequest,
  content: string,
  issuedAt: Date,
): Promise<{ title: string; bytes: Buffer }> {
  const title = titleOf(request);
  const pdf = await openTaggedPdf({
    title,
    subject: 'Approved text issued from a draft in Pension Admin',
    createdAt: issuedAt,
  });
  pdf.heading(title, 'H1');
  for (const block of content.split(/\n\s*\n/)) {
    const text = block.trim();
    if (text.length > 0) pdf.paragraph(text);
  }
  pdf.end();
  return { title, bytes: await pdfBytes(pdf.doc) };
}
