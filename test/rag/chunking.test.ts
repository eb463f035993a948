import { describe, expect, it } from 'vitest';
import {
  boundedPieces,
  chunkDocument,
  citationOf,
  MAX_CHUNK_CHARS,
} from '../../src/server/modules/rag/chunking.rules.js';

/** Splitting by the document's own structure (docs/decisions/0069-regulatory-corpus-and-retrieval.md). */

describe('chunking plain statute text', () => {
  const act = [
    'PART VIB',
    'Governance',
    '',
    '64AL.—(1) The trustees of a scheme shall carry out and document an own-risk assessment.',
    '(2) The assessment shall be proportionate to the size of the scheme.',
    '(3) It shall be carried out at least once every 3 years.',
    '',
    'Section 64AM',
    'Outsourcing',
    'Trustees remain responsible for outsourced work.',
    'Section 5 of the Act applies to this paragraph as it applies elsewhere.',
  ].join('\n');
  const chunks = chunkDocument({ title: 'Pensions Act 1990', format: 'text', content: act });

  it('cites each subsection of a section written the way Irish Acts write it', () => {
    expect(chunks.map((chunk) => chunk.citation)).toEqual([
      'Pensions Act 1990 s.64AL(1)',
      'Pensions Act 1990 s.64AL(2)',
      'Pensions Act 1990 s.64AL(3)',
      'Pensions Act 1990 s.64AM',
    ]);
    expect(chunks[0]?.headingPath).toEqual(['PART VIB — Governance', 'Section 64AL', '(1)']);
    expect(chunks[0]?.body).toBe(
      'The trustees of a scheme shall carry out and document an own-risk assessment.',
    );
  });

  it('takes a bare "Section 64AM" with its title on the next line as one heading, and a sentence that starts "Section 5" as body text', () => {
    const outsourcing = chunks.at(-1);
    expect(outsourcing?.headingPath).toEqual([
      'PART VIB — Governance',
      'Section 64AM — Outsourcing',
    ]);
    expect(outsourcing?.body).toContain('Section 5 of the Act applies');
    expect(outsourcing?.keys).toContain('64AM');
  });

  it('recognises articles of a directive', () => {
    const directive = chunkDocument({
      title: 'Directive (EU) 2016/2341',
      format: 'text',
      content:
        'Article 28\nOwn-risk assessment\n1. Member States shall require IORPs to carry out an ORA.',
    });
    expect(directive).toHaveLength(1);
    expect(directive[0]?.citation).toBe('Directive (EU) 2016/2341 Art. 28');
    expect(directive[0]?.headingPath).toEqual(['Article 28 — Own-risk assessment']);
    expect(directive[0]?.keys).toBe('article 28 art 28 2016 2341 28');
  });
});

describe('chunking Markdown', () => {
  const markdown = [
    '# IORP II summary',
    'Introduction text.',
    '',
    '## Article 24 — Key functions ##',
    'Risk management, internal audit, actuarial.',
    '',
    '### Independence',
    'Internal audit holds no other key function.',
    '',
    '```',
    '# not a heading inside a code fence',
    '```',
    '',
    '## Section 64AL — Own-risk assessment',
    '### (3)',
    'Every three years.',
  ].join('\n');
  const chunks = chunkDocument({
    title: 'Directive (EU) 2016/2341',
    format: 'markdown',
    content: markdown,
  });

  it('follows the heading levels, citing the provision the nearest heading above names', () => {
    expect(chunks.map((chunk) => [chunk.citation, chunk.headingPath])).toEqual([
      ['Directive (EU) 2016/2341 — IORP II summary', ['IORP II summary']],
      ['Directive (EU) 2016/2341 Art. 24', ['IORP II summary', 'Article 24 — Key functions']],
      [
        'Directive (EU) 2016/2341 Art. 24',
        ['IORP II summary', 'Article 24 — Key functions', 'Independence'],
      ],
      [
        'Directive (EU) 2016/2341 s.64AL(3)',
        ['IORP II summary', 'Section 64AL — Own-risk assessment', '(3)'],
      ],
    ]);
  });

  it('keeps a code fence, headings-like lines included, as body text', () => {
    expect(chunks[2]?.body).toContain('# not a heading inside a code fence');
  });
});

describe('chunking HTML', () => {
  const html = `<html><head><title>x</title><style>h2 { color: red }</style></head><body>
    <nav><h2>Menu</h2><p>Home</p></nav>
    <h1>Regulation (EU) 2022/2554</h1>
    <h2>Article 19</h2><p>Major incidents are reported &amp; followed up.</p><p>In three stages.</p>
    <h3>Paragraph 4</h3><p>Members are told.</p>
    <script>var h2 = "<h2>Article 99</h2>";</script>
    <h2>Article 28</h2><ul><li>Register of information</li><li>Exit plans</li></ul>
  </body></html>`;
  const chunks = chunkDocument({ title: 'DORA', format: 'html', content: html });

  it('splits at h1–h6, decodes entities, and leaves out navigation, scripts and styles', () => {
    expect(chunks.map((chunk) => chunk.citation)).toEqual([
      'DORA Art. 19',
      'DORA Art. 19',
      'DORA Art. 28',
    ]);
    expect(chunks[0]?.body).toBe('Major incidents are reported & followed up.\n\nIn three stages.');
    expect(chunks[1]?.headingPath).toEqual([
      'Regulation (EU) 2022/2554',
      'Article 19',
      'Paragraph 4',
    ]);
    expect(chunks[2]?.body).toBe('Register of information\n\nExit plans');
    expect(chunks.some((chunk) => chunk.body.includes('Menu') || chunk.body.includes('99'))).toBe(
      false,
    );
  });
});

describe('chunk size', () => {
  it(`keeps every chunk within ${MAX_CHUNK_CHARS} characters, cutting long sections at paragraphs and sentences`, () => {
    const paragraph = 'The trustees review the policy at least once every three years. '
      .repeat(12)
      .trim();
    const content = `## Article 21\n${Array.from({ length: 10 }, () => paragraph).join('\n\n')}\n\n${'word '.repeat(2000)}`;
    const chunks = chunkDocument({ title: 'IORP II', format: 'markdown', content });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.body.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
      expect(chunk.citation).toBe('IORP II Art. 21');
    }
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual(chunks.map((_, index) => index));
  });

  it('cuts text without any break at the bound', () => {
    const pieces = boundedPieces('x'.repeat(4000));
    expect(pieces.map((piece) => piece.length)).toEqual([MAX_CHUNK_CHARS, MAX_CHUNK_CHARS, 800]);
  });
});

describe('citations', () => {
  it('name the document alone when no heading names a provision', () => {
    expect(citationOf('GDPR', [])).toBe('GDPR');
    expect(citationOf('GDPR', ['Principles'])).toBe('GDPR — Principles');
    expect(citationOf('Act', ['Schedule 1A — Minimum standards'])).toBe('Act Sch. 1A');
    expect(citationOf('Regs', ['Regulation 4'])).toBe('Regs reg. 4');
  });
});
