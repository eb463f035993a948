import { describe, expect, it } from 'vitest';
import { previewCsv } from './csvPreview';

/**
 * The wizard's preview reads a chosen file as the service will (contracts/upload-encoding.ts): a
 * person sees the names the import will store, fadas and all, whichever way Excel saved them.
 */
/** Text of Latin-1 characters only, as Windows-1252 writes it: a byte each. */
const windows1252 = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));

describe('the preview of a chosen CSV file', () => {
  it('shows a Windows-1252 file’s fadas as the service will store them', async () => {
    const text = 'First Name,Surname\nSeán,Ó Briain\n';
    const preview = await previewCsv(new Blob([windows1252(text)]));
    expect(preview.headings).toEqual(['First Name', 'Surname']);
    expect(preview.rows).toEqual([{ line: 2, cells: ['Seán', 'Ó Briain'] }]);
  });

  it('shows a UTF-8 file with its byte-order mark as UTF-8', async () => {
    const preview = await previewCsv(
      new Blob([new TextEncoder().encode('\uFEFFFirst Name,Surname\nSiobhán,Ní Bhriain\n')]),
    );
    expect(preview.headings).toEqual(['First Name', 'Surname']);
    expect(preview.rows[0]?.cells).toEqual(['Siobhán', 'Ní Bhriain']);
  });
});
