import { type DocumentType, MEMBER_DOCUMENT_RULE } from '../../../contracts/documents';
import type { SchemeDocument } from '../../api/types';

/** One document as people think of it: a name under a type, with every version uploaded of it. */
export interface DocumentGroup {
  key: string;
  documentType: DocumentType;
  filename: string;
  /** The newest version first. */
  versions: SchemeDocument[];
}

/**
 * The versions of each name together, newest first, and the names by their newest upload: a
 * second upload of a name under the same type is its next version (docs/decisions/0062-document-vault.md),
 * so the list reads as documents with their history rather than as loose files.
 */
export function groupVersions(documents: readonly SchemeDocument[]): DocumentGroup[] {
  const groups = new Map<string, DocumentGroup>();
  for (const document of documents) {
    // A member's documents are a series of their own (docs/decisions/0090-member-documents.md).
    const key = `${document.documentType}/${document.memberId ?? ''}/${document.filename}`;
    const group = groups.get(key) ?? {
      key,
      documentType: document.documentType,
      filename: document.filename,
      versions: [],
    };
    group.versions.push(document);
    groups.set(key, group);
  }
  const latestOf = (group: DocumentGroup) => group.versions[0] as SchemeDocument;
  for (const group of groups.values()) group.versions.sort((a, b) => b.version - a.version);
  return [...groups.values()].sort((a, b) =>
    latestOf(b).createdAt.localeCompare(latestOf(a).createdAt),
  );
}

/** How a document is named on screen: its title when it has one, its file name otherwise. */
export const documentName = (document: Pick<SchemeDocument, 'title' | 'filename'>) =>
  document.title ?? document.filename;

export interface UploadValues {
  documentType: DocumentType | '';
  memberFacing: boolean;
  title: string;
  /** The member the document is about, or empty. */
  memberId: string;
}

/** The upload form's fields as multipart sends them, for the shared contract to check. */
export const uploadFields = (values: UploadValues) => ({
  documentType: values.documentType === '' ? undefined : values.documentType,
  memberFacing: values.memberFacing ? 'true' : 'false',
  title: values.title.trim() === '' ? undefined : values.title,
  // A member picked for a type that takes one stays out once the type changes to one that does
  // not: the field is no longer shown, so there is nothing the person could correct.
  memberId:
    values.memberId === '' ||
    values.documentType === '' ||
    MEMBER_DOCUMENT_RULE[values.documentType] === 'refused'
      ? undefined
      : values.memberId,
});
