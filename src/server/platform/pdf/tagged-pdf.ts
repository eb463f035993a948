import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type PDFDocumentClass from 'pdfkit';
import { sfntFromWoff } from './woff.js';

/**
 * Noto Sans, embedded: PDF/UA (ISO 14289-1, 7.21.4.1) requires every font to be embedded, and the
 * standard 14 are not. Resolved through the package so that the built server finds it as well.
 */
const require = createRequire(import.meta.url);
const FONT_DIRECTORY = path.join(
  path.dirname(require.resolve('@fontsource/noto-sans/package.json')),
  'files',
);

/** What pdfkit asks of a font object it is given in place of a font's bytes: fontkit's fonts. */
interface FontkitFont {
  layout(text: string): unknown;
}

interface PdfKit {
  PDFDocument: typeof PDFDocumentClass;
  regular: FontkitFont;
  bold: FontkitFont;
}

/**
 * A font parsed once for every PDF of the process, by the fontkit pdfkit itself depends on (so
 * the two agree on its version): pdfkit takes a fontkit font in place of bytes, and a font parsed
 * for each document decoded its layout tables again each time. From the font's TrueType tables,
 * unwrapped from the WOFF file once (woff.ts says why). fontkit's caches on the font are what it
 * has read of the file, the same for every document.
 */
function parsedFont(woff: Buffer): FontkitFont {
  const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as {
    create(bytes: Buffer): FontkitFont;
  };
  return fontkit.create(sfntFromWoff(woff));
}

let loading: Promise<PdfKit> | undefined;

/**
 * pdfkit (with fontkit and its tables) and the fonts, loaded with the first PDF rather than at
 * start-up: an instance that makes none does not carry them
 * (docs/decisions/0079-lazy-loading-for-idle-memory.md). Kept once loaded, so each later PDF
 * uses the fonts as parsed once instead of reading, inflating and parsing them again
 * (docs/decisions/0141-pension-benefit-statements.md, "Speed"). A failed load is not
 * kept: the next PDF tries again and fails with the same clear error if the cause remains.
 */
function loadPdfKit(): Promise<PdfKit> {
  loading ??= Promise.all([
    import('pdfkit'),
    readFile(path.join(FONT_DIRECTORY, 'noto-sans-latin-400-normal.woff')),
    readFile(path.join(FONT_DIRECTORY, 'noto-sans-latin-700-normal.woff')),
  ]).then(
    ([pdfkit, regular, bold]) => ({
      PDFDocument: pdfkit.default,
      regular: parsedFont(regular),
      bold: parsedFont(bold),
    }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** What a heading keeps with it on its page, in points: about four lines of body text. */
const KEEP_WITH_HEADING = 60;

export interface TaggedPdf {
  doc: PDFKit.PDFDocument;
  /** The structure tree's root: every heading, paragraph, list and table is tagged under it. */
  root: PDFKit.PDFStructureElement;
  /**
   * A heading, kept on one page with at least `keepWithNext` points of what follows it (three or
   * so lines of text, a table's heading row and first row): a heading is never the last thing on
   * a page.
   */
  heading(text: string, level: 'H1' | 'H2', keepWithNext?: number): void;
  /** Starts a new page unless `height` points still fit on this one. */
  keepTogether(height: number): void;
  paragraph(text: string): void;
  /** Closes the structure tree and the document; the bytes then flow from `doc`. */
  end(): void;
}

/**
 * A tagged PDF (PDF/UA-minded) as the service writes them, the evidence pack and issued drafts
 * alike (docs/decisions/0065-evidence-pack.md): document language en-IE and the title shown in the
 * window bar, a structure tree under a Document element, the embedded fonts `Body` and `Heading`.
 */
export async function openTaggedPdf(meta: {
  title: string;
  subject: string;
  createdAt: Date;
}): Promise<TaggedPdf> {
  const { PDFDocument, regular, bold } = await loadPdfKit();
  const doc = new PDFDocument({
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en-IE',
    displayTitle: true,
    size: 'A4',
    margin: 56,
    info: {
      Title: meta.title,
      Subject: meta.subject,
      Creator: 'Pension Admin',
      CreationDate: meta.createdAt,
    },
  });
  // pdfkit's types name only bytes and paths; its code takes a fontkit font as well.
  doc.registerFont('Body', regular as unknown as Buffer);
  doc.registerFont('Heading', bold as unknown as Buffer);
  const root = doc.struct('Document');
  doc.addStructure(root);
  const keepTogether = (height: number) => {
    const bottom = doc.page.height - doc.page.margins.bottom;
    if (doc.y + height > bottom && doc.y > doc.page.margins.top) doc.addPage();
  };
  return {
    doc,
    root,
    heading(text, level, keepWithNext = KEEP_WITH_HEADING) {
      doc.moveDown(level === 'H1' ? 0 : 1);
      doc.font('Heading').fontSize(level === 'H1' ? 18 : 13);
      keepTogether(doc.heightOfString(text) + keepWithNext);
      doc.text(text, { structParent: root, structType: level });
      doc.moveDown(0.4);
      doc.font('Body').fontSize(10);
    },
    paragraph(text) {
      doc.font('Body').fontSize(10).text(text, { structParent: root });
    },
    keepTogether,
    end() {
      root.end();
      doc.end();
    },
  };
}

/** The whole of a PDF's bytes, for a document small enough to hold in memory. */
export async function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
