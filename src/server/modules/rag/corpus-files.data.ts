import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  type CorpusDocument,
  type CorpusFormat,
  corpusDocument,
  MAX_CORPUS_DOCUMENT_CHARS,
} from '../../../contracts/rag.js';

/**
 * Corpus documents read from disk: the starter corpus shipped in `corpus/` (ingested at start-up)
 * and the folders or manifests an operator passes to `npm run cli -- rag:ingest`.
 */

/** The starter corpus: `corpus/` at the root of the checkout, for the built server as for tsx. */
export const SHIPPED_CORPUS_DIR = fileURLToPath(new URL('../../../../corpus', import.meta.url));
export const MANIFEST_NAME = 'manifest.json';

const manifestSchema = z.strictObject({
  /** Given to every document without a version of its own: raising it replaces them all. */
  version: z.string().min(1).max(100).optional(),
  documents: z
    .array(
      z.strictObject({
        source: z.string(),
        title: z.string(),
        url: z.string().optional(),
        version: z.string().optional(),
        format: z.string(),
        /** Relative to the manifest's folder. */
        file: z.string().min(1),
        /**
         * The provisions the document summarises that no rule of the service cites ("s.54",
         * "Art. 38"): a heading may attribute text to a provision only if a rule module cites it
         * or it is listed here (docs/decisions/0120-rules-labelled-law-guidance-policy.md). Read
         * by the corpus tests; not part of what is ingested.
         */
        provisionsWithoutRule: z.array(z.string().min(1).max(40)).max(1000).optional(),
      }),
    )
    .min(1),
});

const FORMAT_BY_EXTENSION: Record<string, CorpusFormat> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.txt': 'text',
};

export class CorpusFileError extends Error {
  override name = 'CorpusFileError';
}

function checked(document: unknown, where: string): CorpusDocument {
  const parsed = corpusDocument.safeParse(document);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'document'}: ${issue.message}`)
      .join('; ');
    throw new CorpusFileError(`${where}: ${problems}`);
  }
  return parsed.data;
}

async function readContent(file: string): Promise<string> {
  const { size } = await stat(file);
  // UTF-8 needs at least one byte a character: a larger file cannot be within the bound.
  if (size > MAX_CORPUS_DOCUMENT_CHARS * 4) {
    throw new CorpusFileError(`${path.basename(file)}: larger than a corpus document may be`);
  }
  return readFile(file, 'utf8');
}

/** The documents a manifest lists, their files read from beside it. */
export async function readManifest(manifestPath: string): Promise<CorpusDocument[]> {
  const folder = path.dirname(manifestPath);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(manifestPath, 'utf8'));
  } catch {
    throw new CorpusFileError(`${path.basename(manifestPath)}: not readable as JSON`);
  }
  const manifest = manifestSchema.safeParse(raw);
  if (!manifest.success) {
    throw new CorpusFileError(
      `${path.basename(manifestPath)}: ${manifest.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  const documents: CorpusDocument[] = [];
  for (const entry of manifest.data.documents) {
    const file = path.resolve(folder, entry.file);
    if (path.relative(folder, file).startsWith('..')) {
      throw new CorpusFileError(`${entry.file}: outside the manifest's folder`);
    }
    const { file: _file, provisionsWithoutRule: _listed, ...fields } = entry;
    const version = entry.version ?? manifest.data.version;
    documents.push(
      checked(
        { ...fields, ...(version ? { version } : {}), content: await readContent(file) },
        entry.file,
      ),
    );
  }
  return documents;
}

/** The first heading of a Markdown or HTML file, else its name: the title of a bare file. */
function titleOf(content: string, format: CorpusFormat, fallback: string): string {
  if (format === 'markdown') {
    for (const line of content.split('\n', 50)) {
      if (line.startsWith('# ')) return line.slice(2).trim().slice(0, 200) || fallback;
    }
  }
  return fallback;
}

/** Every Markdown, HTML and text file of a folder, named after its file. */
async function readFolder(folder: string): Promise<CorpusDocument[]> {
  const names = (await readdir(folder)).sort();
  const documents: CorpusDocument[] = [];
  for (const name of names) {
    const extension = path.extname(name).toLowerCase();
    const format = FORMAT_BY_EXTENSION[extension];
    if (!format || name.toLowerCase() === 'readme.md') continue;
    const base = name.slice(0, name.length - extension.length);
    const content = await readContent(path.join(folder, name));
    documents.push(
      checked(
        {
          source: base
            .toLowerCase()
            .replace(/[^a-z0-9._-]/g, '-')
            .replace(/^[^a-z0-9]/, 'x'),
          title: titleOf(content, format, base),
          format,
          content,
        },
        name,
      ),
    );
  }
  return documents;
}

/** A manifest file, a folder holding one, or a folder of documents. */
export async function readCorpus(target: string): Promise<CorpusDocument[]> {
  const info = await stat(target);
  if (info.isFile()) return readManifest(target);
  const manifest = path.join(target, MANIFEST_NAME);
  const hasManifest = await stat(manifest).then(
    (found) => found.isFile(),
    () => false,
  );
  const documents = hasManifest ? await readManifest(manifest) : await readFolder(target);
  if (documents.length === 0) throw new CorpusFileError('no Markdown, HTML or text files found');
  return documents;
}
