import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sfntFromWoff } from '../../src/server/platform/pdf/woff.js';

/**
 * The PDFs' fonts unwrapped from WOFF once a process (docs/decisions/0141-pension-benefit-statements.md,
 * "Speed"): the TrueType font is the same font, so what a PDF embeds does not change.
 */
const require = createRequire(import.meta.url);
const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as {
  create(bytes: Buffer): {
    postscriptName: string;
    numGlyphs: number;
    layout(text: string): { glyphs: Array<{ id: number }>; positions: unknown[] };
    getGlyph(id: number): unknown;
    createSubset(): { includeGlyph(glyph: unknown): void; encode(): Uint8Array };
  };
};
const FONTS = path.join(
  path.dirname(require.resolve('@fontsource/noto-sans/package.json')),
  'files',
);
const TEXT = 'Pension Benefit Statement: Your benefits at 31 December 2025, €1,234.56 ’';

describe('PDF fonts unwrapped from WOFF', () => {
  for (const file of ['noto-sans-latin-400-normal.woff', 'noto-sans-latin-700-normal.woff']) {
    it(`${file} is the same font, laid out and embedded alike`, () => {
      const woff = readFileSync(path.join(FONTS, file));
      const fromWoff = fontkit.create(woff);
      const fromSfnt = fontkit.create(sfntFromWoff(woff));
      expect(fromSfnt.postscriptName).toBe(fromWoff.postscriptName);
      expect(fromSfnt.numGlyphs).toBe(fromWoff.numGlyphs);
      const a = fromWoff.layout(TEXT);
      const b = fromSfnt.layout(TEXT);
      expect(b.glyphs.map((glyph) => glyph.id)).toEqual(a.glyphs.map((glyph) => glyph.id));
      expect(b.positions).toEqual(a.positions);
      const subsetA = fromWoff.createSubset();
      const subsetB = fromSfnt.createSubset();
      for (const glyph of a.glyphs) {
        subsetA.includeGlyph(glyph);
        subsetB.includeGlyph(fromSfnt.getGlyph(glyph.id));
      }
      expect(Buffer.from(subsetB.encode()).equals(Buffer.from(subsetA.encode()))).toBe(true);
    });
  }

  it('refuses what is not a WOFF 1.0 font', () => {
    expect(() =>
      sfntFromWoff(Buffer.from('%PDF-1.7 not a font at all, long enough to read')),
    ).toThrow('not a WOFF 1.0 font');
  });
});
