import { Parser } from 'htmlparser2';
import type { CorpusFormat } from '../../../contracts/rag.js';

/**
 * Splits a regulatory document by its own structure (docs/decisions/0069-regulatory-corpus-and-retrieval.md):
 * Markdown headings, HTML h1–h6, and in plain text the headings statutes use
 * ("PART 7", "Article 28", "Section 64AL", "64AL.—(1) …" and its subsections "(2) …"). Each chunk
 * carries the citation an answer quotes, the headings above it, and a bounded body.
 *
 * Every pattern here runs on one line or one heading, never on a whole document, and none has
 * nested or overlapping quantifiers: each is linear in what it reads (docs/decisions/0034-linear-patterns.md).
 * Lines longer than MAX_HEADING_CHARS are never taken for headings.
 */

/** A chunk's body at most: a few paragraphs, so a citation points at something a reader can check. */
export const MAX_CHUNK_CHARS = 1_600;
/** Statute headings are short; a longer line is body text whatever it starts with. */
const MAX_HEADING_CHARS = 200;

export interface Chunk {
  ordinal: number;
  /** "Pensions Act 1990 s.64AL(1)", "Directive (EU) 2016/2341 Art. 28". */
  citation: string;
  headingPath: string[];
  /** Spellings of the identifiers in the citation, matched without stemming. */
  keys: string;
  body: string;
}

type Block = { kind: 'heading'; level: number; text: string } | { kind: 'text'; text: string };

/** What a heading names, when it names a provision. */
interface Provision {
  kind: 'part' | 'chapter' | 'article' | 'section' | 'regulation' | 'schedule' | 'subsection';
  id: string;
}

const ARTICLE = /^(?:article|art\.?)\s{1,5}(\d{1,4}[a-z]{0,2})\b/i;
const SECTION = /^(?:section|sec\.|s\.)\s{0,5}(\d{1,4}[a-z]{0,4})\b/i;
/** The way Irish Acts number a section in their own text: `64AL.—(1) The trustees …`. */
const STATUTE_SECTION = /^(\d{1,4}[A-Z]{0,4})\.\s{0,3}[—–-]{1,2}\s{0,3}/;
const SUBSECTION = /^\((\d{1,3}[A-Za-z]{0,2})\)\s{0,5}/;
const REGULATION = /^regulation\s{1,5}(\d{1,4}[a-z]{0,2})\b/i;
const SCHEDULE = /^schedule\s{1,5}(\d{1,3}[a-z]{0,2})\b/i;
const PART = /^part\s{1,5}(\d{1,3}[a-z]{0,2}|[ivxlc]{1,8}[a-z]?)\b/i;
const CHAPTER = /^chapter\s{1,5}(\d{1,3}[a-z]{0,2}|[ivxlc]{1,8}[a-z]?)\b/i;

/** The provision a heading names, if any (only ever called on short text). */
export function provisionOf(heading: string): Provision | null {
  const text = heading.trim();
  if (text.length > MAX_HEADING_CHARS) return null;
  const match = (pattern: RegExp) => pattern.exec(text)?.[1];
  let id = match(ARTICLE);
  if (id) return { kind: 'article', id };
  id = match(SECTION) ?? match(STATUTE_SECTION);
  if (id) return { kind: 'section', id: id.toUpperCase() };
  id = match(REGULATION);
  if (id) return { kind: 'regulation', id };
  id = match(SCHEDULE);
  if (id) return { kind: 'schedule', id };
  id = match(PART);
  if (id) return { kind: 'part', id: id.toUpperCase() };
  id = match(CHAPTER);
  if (id) return { kind: 'chapter', id: id.toUpperCase() };
  id = match(SUBSECTION);
  if (id) return { kind: 'subsection', id };
  return null;
}

/** The citation of a place in a document, from the provisions its heading path names. */
export function citationOf(title: string, headingPath: readonly string[]): string {
  let main: Provision | null = null;
  let sub: string | null = null;
  for (const heading of headingPath) {
    const provision = provisionOf(heading);
    if (!provision) continue;
    if (provision.kind === 'subsection') {
      if (main) sub = provision.id;
    } else if (provision.kind !== 'part' && provision.kind !== 'chapter') {
      main = provision;
      sub = null;
    }
  }
  if (!main) {
    const last = headingPath.at(-1);
    return last && last !== title ? `${title} — ${last}` : title;
  }
  const prefix = { article: 'Art. ', section: 's.', regulation: 'reg. ', schedule: 'Sch. ' }[
    main.kind as 'article' | 'section' | 'regulation' | 'schedule'
  ];
  return `${title} ${prefix}${main.id}${sub ? `(${sub})` : ''}`;
}

/** The ways people write the identifiers of a heading path: "Article 28", "Art 28", "64AL". */
function keysOf(headingPath: readonly string[]): string {
  const keys: string[] = [];
  for (const heading of headingPath) {
    const provision = provisionOf(heading);
    if (!provision || provision.kind === 'subsection') continue;
    const { kind, id } = provision;
    if (kind === 'article') keys.push(`article ${id} art ${id}`);
    else if (kind === 'section') keys.push(`section ${id} s ${id} ${id}`);
    else keys.push(`${kind} ${id}`);
  }
  return keys.join(' ');
}

/**
 * The words of a citation that hold a digit, split at anything else: "2016/2341" is one token to
 * the full-text parser but two numbers to a reader, who may ask about either.
 */
function numberedWords(citation: string): string[] {
  const words: string[] = [];
  let word = '';
  let numbered = false;
  for (const character of `${citation} `) {
    const digit = character >= '0' && character <= '9';
    const letter = (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z');
    if (digit || letter) {
      word += character;
      numbered ||= digit;
    } else {
      if (numbered) words.push(word);
      word = '';
      numbered = false;
    }
  }
  return words;
}

function markdownBlocks(content: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let fenced = false;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'text', text: paragraph.join('\n') });
    paragraph = [];
  };
  for (const line of content.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed.startsWith('```')) {
      fenced = !fenced;
      paragraph.push(trimmed);
      continue;
    }
    const heading = fenced || trimmed.length > MAX_HEADING_CHARS ? null : MD_HEADING.exec(trimmed);
    if (heading) {
      flush();
      blocks.push({
        kind: 'heading',
        level: (heading[1] as string).length,
        text: stripClosingHashes(heading[2] as string),
      });
    } else if (trimmed.trim() === '') {
      flush();
    } else {
      paragraph.push(trimmed);
    }
  }
  flush();
  return blocks;
}
const MD_HEADING = /^(#{1,6})\s{1,10}(\S.*)$/;

/** "## Title ##" is a heading "Title"; walked back rather than matched (no `\s+#+$`). */
function stripClosingHashes(heading: string): string {
  let end = heading.length;
  while (end > 0 && heading[end - 1] === '#') end -= 1;
  return (end > 0 && heading[end - 1] === ' ' ? heading.slice(0, end) : heading).trim();
}

const HTML_HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Elements whose end ends a paragraph. */
const HTML_BREAKS = new Set([
  'p',
  'div',
  'li',
  'tr',
  'br',
  'section',
  'article',
  'blockquote',
  'dd',
  'dt',
  'table',
  'ul',
  'ol',
]);
const HTML_SKIPPED = new Set([
  'head',
  'title',
  'script',
  'style',
  'nav',
  'header',
  'footer',
  'noscript',
  'template',
]);

function htmlBlocks(content: string): Block[] {
  const blocks: Block[] = [];
  let buffer = '';
  let headingLevel = 0;
  let skipped = 0;
  const flushText = () => {
    const text = collapse(buffer);
    if (text) blocks.push({ kind: 'text', text });
    buffer = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (HTML_SKIPPED.has(name)) skipped += 1;
        const level = HTML_HEADINGS[name];
        if (level) {
          flushText();
          headingLevel = level;
        }
      },
      ontext(data) {
        if (skipped === 0) buffer += data;
      },
      onclosetag(name) {
        if (HTML_SKIPPED.has(name)) skipped = Math.max(0, skipped - 1);
        else if (HTML_HEADINGS[name] && headingLevel) {
          const text = collapse(buffer);
          buffer = '';
          if (text) blocks.push({ kind: 'heading', level: headingLevel, text });
          headingLevel = 0;
        } else if (HTML_BREAKS.has(name) && !headingLevel) {
          flushText();
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(content);
  parser.end();
  flushText();
  return blocks;
}

/** White space runs become one space, in one pass. */
function collapse(text: string): string {
  let out = '';
  let space = false;
  for (const character of text) {
    if (character === ' ' || character === '\n' || character === '\t' || character === '\r') {
      space = out.length > 0;
    } else {
      if (space) out += ' ';
      out += character;
      space = false;
    }
  }
  return out;
}

/** Plain text: levels by what the heading names (Part 1, Chapter 2, Article/Section 3, subsection 4). */
function textBlocks(content: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let inProvision = false;
  /** A heading that named only its provision, whose title may follow on the next line. */
  let untitled: Extract<Block, { kind: 'heading' }> | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'text', text: paragraph.join('\n') });
    paragraph = [];
  };
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      flush();
      continue;
    }
    const statute = line.length > MAX_HEADING_CHARS ? null : STATUTE_SECTION.exec(line);
    if (statute) {
      // "64AL.—(1) The trustees …": a section heading, then its first subsection's text.
      flush();
      blocks.push({ kind: 'heading', level: 3, text: `Section ${statute[1]}` });
      inProvision = true;
      pushSubsection(blocks, line.slice(statute[0].length));
      continue;
    }
    const provision = isHeadingLine(line) ? provisionOf(line) : null;
    if (provision && provision.kind !== 'subsection') {
      flush();
      const level = provision.kind === 'part' ? 1 : provision.kind === 'chapter' ? 2 : 3;
      const heading: Extract<Block, { kind: 'heading' }> = { kind: 'heading', level, text: line };
      blocks.push(heading);
      inProvision = level === 3;
      untitled = isBareIdentifier(line) ? heading : null;
      continue;
    }
    if (untitled && paragraph.length === 0 && isHeadingLine(line) && line.length <= 100) {
      // "Article 28" then "Own-risk assessment" on the next line: one heading.
      untitled.text = `${untitled.text} — ${line}`;
      untitled = null;
      continue;
    }
    untitled = null;
    if (inProvision && line.length <= MAX_HEADING_CHARS ? SUBSECTION.test(line) : false) {
      flush();
      pushSubsection(blocks, line);
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}

/** "Article 28", "PART 7", "Section 64AL": the identifier and nothing after it. */
function isBareIdentifier(line: string): boolean {
  const words = line.split(' ').filter((word) => word.length > 0);
  return words.length === 2;
}

/** A line that reads as a heading: short, and not a sentence that happens to begin "Section 5 …". */
function isHeadingLine(line: string): boolean {
  return line.length <= 120 && !line.endsWith('.') && !line.endsWith(';') && !line.endsWith(',');
}

function pushSubsection(blocks: Block[], text: string): void {
  const sub = SUBSECTION.exec(text.length <= MAX_HEADING_CHARS ? text : text.slice(0, 16));
  if (sub) {
    blocks.push({ kind: 'heading', level: 4, text: `(${sub[1]})` });
    const rest = text.slice(sub[0].length).trim();
    if (rest) blocks.push({ kind: 'text', text: rest });
  } else if (text.trim()) {
    blocks.push({ kind: 'text', text: text.trim() });
  }
}

/** Splits text over MAX_CHUNK_CHARS at paragraph, then sentence, then word boundaries. */
export function boundedPieces(text: string, max = MAX_CHUNK_CHARS): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf('\n\n');
    if (cut < max / 3) cut = window.lastIndexOf('. ') + 1;
    if (cut < max / 3) cut = window.lastIndexOf(' ');
    if (cut < max / 3) cut = max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces.filter((piece) => piece.length > 0);
}

export interface ChunkInput {
  title: string;
  format: CorpusFormat;
  content: string;
}

/** The document's chunks in reading order; headings without text of their own make none. */
export function chunkDocument({ title, format, content }: ChunkInput): Chunk[] {
  const normalised = content.replace(/\r\n?/g, '\n');
  const blocks =
    format === 'markdown'
      ? markdownBlocks(normalised)
      : format === 'html'
        ? htmlBlocks(normalised)
        : textBlocks(normalised);
  const chunks: Chunk[] = [];
  const path: { level: number; text: string }[] = [];
  let body: string[] = [];
  const emit = () => {
    const text = body.join('\n\n').trim();
    body = [];
    if (!text) return;
    const headingPath = path.map((entry) => entry.text);
    const citation = citationOf(title, headingPath);
    const keys = [keysOf(headingPath), ...numberedWords(citation)].join(' ').trim();
    for (const piece of boundedPieces(text)) {
      chunks.push({ ordinal: chunks.length, citation, headingPath, keys, body: piece });
    }
  };
  for (const block of blocks) {
    if (block.kind === 'heading') {
      emit();
      while (path.length > 0 && (path.at(-1) as { level: number }).level >= block.level) path.pop();
      path.push({ level: block.level, text: block.text });
    } else {
      body.push(block.text);
    }
  }
  emit();
  return chunks;
}
