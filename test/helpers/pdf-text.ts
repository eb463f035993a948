import { inflateSync } from 'node:zlib';

/**
 * Just enough of a PDF reader to check what a generated PDF says: its objects, its streams
 * inflated, and the text of its content streams decoded through each font's ToUnicode map (the
 * map a screen reader or a copy and paste uses too). For the PDFs pdfkit writes: no object
 * streams, direct /Length values, Type0 fonts with 2-byte codes.
 */
export interface ReadPdf {
  /** Each object's text (its dictionary and, for a stream, the inflated data), by number. */
  objects: Map<number, string>;
  /** Every stream's data, inflated where it was compressed, as Latin-1 text. */
  streams: string[];
  /** The text drawn on the pages, in drawing order, one line per text object. */
  text: string;
  /** The text of each page, in page order, as `text` gives it for the whole document. */
  pages: string[];
}

const OBJECT = /(\d+) 0 obj\s*((?:(?!endobj)[\s\S])*?)endobj/g;

function utf16(hex: string): string {
  const clean = hex.replace(/\s+/g, '');
  let out = '';
  for (let at = 0; at + 4 <= clean.length; at += 4) {
    out += String.fromCharCode(Number.parseInt(clean.slice(at, at + 4), 16));
  }
  return out;
}

/** A ToUnicode CMap's code → text, from its bfchar and bfrange sections. */
function cmapOf(source: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of source.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const pair of (block[1] ?? '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]+)>/g)) {
      map.set(Number.parseInt(pair[1] ?? '', 16), utf16(pair[2] ?? ''));
    }
  }
  for (const block of source.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    const body = block[1] ?? '';
    for (const range of body.matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F\s]+>)/g,
    )) {
      const low = Number.parseInt(range[1] ?? '', 16);
      const high = Number.parseInt(range[2] ?? '', 16);
      const target = range[3] ?? '';
      if (target.startsWith('[')) {
        const items = [...target.matchAll(/<([0-9a-fA-F\s]+)>/g)].map((item) => item[1] ?? '');
        items.forEach((item, offset) => {
          map.set(low + offset, utf16(item));
        });
      } else {
        const first = utf16(target.slice(1, -1));
        for (let code = low; code <= high; code += 1) {
          map.set(
            code,
            first.slice(0, -1) +
              String.fromCharCode(first.charCodeAt(first.length - 1) + code - low),
          );
        }
      }
    }
  }
  return map;
}

export function readPdf(bytes: Buffer): ReadPdf {
  const latin = bytes.toString('latin1');
  const objects = new Map<number, string>();
  const streams: string[] = [];
  for (const match of latin.matchAll(OBJECT)) {
    const number = Number(match[1]);
    const body = match[2] ?? '';
    const streamAt = body.search(/stream\r?\n/);
    if (streamAt === -1) {
      objects.set(number, body);
      continue;
    }
    const dictionary = body.slice(0, streamAt);
    const length = Number(/\/Length (\d+)/.exec(dictionary)?.[1]);
    const dataStart = (match.index ?? 0) + match[0].indexOf(body) + streamAt;
    const start = latin.indexOf('\n', dataStart) + 1;
    const raw = bytes.subarray(start, start + length);
    const data = (/\/FlateDecode/.test(dictionary) ? inflateSync(raw) : raw).toString('latin1');
    streams.push(data);
    objects.set(number, `${dictionary}\n${data}`);
  }

  // Font resource name → the CMap of its ToUnicode stream.
  const cmaps = new Map<string, Map<number, string>>();
  for (const body of objects.values()) {
    const fonts = /\/Font\s*<<([^>]*)>>/.exec(body)?.[1];
    if (!fonts) continue;
    for (const [, name, ref] of fonts.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const font = objects.get(Number(ref)) ?? '';
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(font)?.[1];
      if (name && toUnicode) cmaps.set(name, cmapOf(objects.get(Number(toUnicode)) ?? ''));
    }
  }

  const linesOf = (stream: string): string[] => {
    const lines: string[] = [];
    for (const block of stream.matchAll(/BT([\s\S]*?)ET/g)) {
      let cmap: Map<number, string> | undefined;
      let line = '';
      for (const token of (block[1] ?? '').matchAll(/\/(\w+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>/g)) {
        if (token[1]) {
          cmap = cmaps.get(token[1]);
          continue;
        }
        const hex = token[2] ?? '';
        for (let at = 0; at + 4 <= hex.length; at += 4) {
          line += cmap?.get(Number.parseInt(hex.slice(at, at + 4), 16)) ?? '\uFFFD';
        }
      }
      lines.push(line);
    }
    return lines;
  };
  const text = streams.flatMap(linesOf).join('\n');

  // Pages in the order of the page tree's /Kids; each page's content stream, inflated.
  const kids = [...objects.values()]
    .map((body) => /\/Type \/Pages\b[\s\S]*?\/Kids \[([^\]]*)\]/.exec(body)?.[1])
    .find((found) => found !== undefined);
  const pageNumbers = [...(kids ?? '').matchAll(/(\d+) 0 R/g)].map((match) => Number(match[1]));
  const pages = pageNumbers.map((number) => {
    const page = objects.get(number) ?? '';
    const contents = /\/Contents (\d+) 0 R/.exec(page)?.[1];
    const body = objects.get(Number(contents)) ?? '';
    return linesOf(body).join('\n');
  });
  return { objects, streams, text, pages };
}

/** The text with line breaks and runs of spaces as single spaces, for phrases a wrap may split. */
export function flowing(text: string): string {
  return text.replace(/\s+/g, ' ');
}
