import { momentInWords } from '../../../contracts/irish-dates.js';
import { openTaggedPdf, pdfBytes } from '../../platform/pdf/tagged-pdf.js';

/**
 * A member's data as a readable, tagged PDF (GDPR Art. 15;
 * docs/decisions/0149-retention-and-erasure.md), from the rows of the readable copy that the CSV
 * is written from, so the two never say different things. The rows come in groups parted by an
 * empty row: the title the CSV gives itself; the member's details, a label and its value a row;
 * then tables, each a row with its title (and the sentence an empty one says), a row naming its
 * columns, and its rows. A table is written under its title as a list, one item a row: its first
 * value, then each other value after its column's name, unless the value already says it ("Paid
 * by you" under "Paid by"), which reads aloud as well as it prints. The member's name stays out of
 * the document's metadata.
 */
export async function memberDataPdf(rows: readonly string[][], exportedAt: Date): Promise<Buffer> {
  const title = 'Your pension data';
  const pdf = await openTaggedPdf({
    title,
    subject: 'Everything the pension administrator holds about a member, in words',
    createdAt: exportedAt,
  });
  const bytes = pdfBytes(pdf.doc);
  const list = (items: readonly string[]) => {
    const element = pdf.doc.struct('L');
    pdf.root.add(element);
    pdf.doc
      .font('Body')
      .fontSize(10)
      .list([...items], { structParent: element, paragraphGap: 3 });
    element.end();
    pdf.doc.x = pdf.doc.page.margins.left;
    pdf.doc.moveDown(0.5);
  };

  const groups: string[][][] = [[]];
  for (const row of rows) {
    if (row.length === 0) groups.push([]);
    else groups.at(-1)?.push(row);
  }
  // The first group is the title the CSV gives itself; the member's details follow it.
  const [, details = [], ...tables] = groups.filter((group) => group.length > 0);

  pdf.heading(title, 'H1');
  pdf.paragraph(`Exported ${momentInWords(exportedAt.toISOString())}.`);
  pdf.doc.moveDown(0.5);
  if (details.length > 0) {
    pdf.heading('About you', 'H2');
    list(details.map(([label, value]) => `${label}: ${value ?? ''}`));
  }
  for (const [[title = '', empty = ''] = [], columns = [], ...entries] of tables) {
    pdf.heading(title, 'H2');
    if (entries.length === 0) {
      pdf.paragraph(empty);
      pdf.doc.moveDown(0.5);
      continue;
    }
    list(
      entries.map(([first = '', ...values]) =>
        [
          first,
          ...values.flatMap((value, index) => {
            if (value === '') return [];
            const column = columns[index + 1] ?? '';
            return value.toLowerCase().startsWith(column.toLowerCase())
              ? [value]
              : [`${column}: ${value}`];
          }),
        ].join('; '),
      ),
    );
  }
  pdf.end();
  return bytes;
}
