import { describe, expect, it } from 'vitest';
import { documentUploadFields, fileSizeProblem } from '../../../contracts/documents';
import type { SchemeDocument } from '../../api/types';
import { groupVersions, uploadFields } from './documents-helpers';

const document = (over: Partial<SchemeDocument>): SchemeDocument => ({
  id: 'd',
  schemeId: 's',
  documentType: 'trust_deed',
  filename: 'Deed.pdf',
  originalFilename: 'Deed.pdf',
  title: null,
  memberFacing: false,
  memberId: null,
  contentType: 'application/pdf',
  size: 10,
  sha256: '0'.repeat(64),
  version: 1,
  scanStatus: 'clean',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('the documents list', () => {
  it('keeps each name’s versions together, newest first, and the names by their newest upload', () => {
    const groups = groupVersions([
      document({ id: 'a1', filename: 'A.pdf', version: 1, createdAt: '2026-01-01T00:00:00Z' }),
      document({ id: 'b1', filename: 'B.pdf', version: 1, createdAt: '2026-01-02T00:00:00Z' }),
      document({ id: 'a2', filename: 'A.pdf', version: 2, createdAt: '2026-01-03T00:00:00Z' }),
      document({
        id: 'a-other-type',
        filename: 'A.pdf',
        documentType: 'other',
        createdAt: '2026-01-01T12:00:00Z',
      }),
    ]);
    expect(groups.map((group) => group.versions.map((version) => version.id))).toEqual([
      ['a2', 'a1'],
      ['b1'],
      ['a-other-type'],
    ]);
  });
});

describe('the upload form', () => {
  it('refuses a file over 25 MB before sending it, and an empty one, in words', () => {
    expect(fileSizeProblem(25 * 1024 * 1024)).toBeNull();
    expect(fileSizeProblem(25 * 1024 * 1024 + 1)).toBe(
      'The file is over 25 MB: a document may be at most 25 MB',
    );
    expect(fileSizeProblem(30.25 * 1024 * 1024)).toBe(
      'The file is 30.3 MB: a document may be at most 25 MB',
    );
    expect(fileSizeProblem(0)).toBe('The file is empty');
  });

  it('checks its fields with the contract the API parses them with', () => {
    const body = uploadFields({
      documentType: 'written_policy',
      memberFacing: true,
      title: ' ',
      memberId: '',
    });
    expect(body).toEqual({
      documentType: 'written_policy',
      memberFacing: 'true',
      title: undefined,
      memberId: undefined,
    });
    expect(documentUploadFields.safeParse(body).success).toBe(true);
    const missing = documentUploadFields.safeParse(
      uploadFields({ documentType: '', memberFacing: false, title: '', memberId: '' }),
    );
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.path).toEqual(['documentType']);
  });

  it('asks for the member a benefit statement is about, and refuses one on a scheme-wide type', () => {
    const statement = (memberId: string) =>
      documentUploadFields.safeParse(
        uploadFields({
          documentType: 'benefit_statement',
          memberFacing: false,
          title: '',
          memberId,
        }),
      );
    expect(statement('').error?.issues.map((issue) => issue.path)).toEqual([['memberId']]);
    expect(statement('m1').success).toBe(true);
    const deed = documentUploadFields.safeParse({ documentType: 'trust_deed', memberId: 'm1' });
    expect(deed.error?.issues.map((issue) => issue.path)).toEqual([['memberId']]);
    // The form drops a member left over from a type that took one.
    expect(
      uploadFields({ documentType: 'trust_deed', memberFacing: false, title: '', memberId: 'm1' })
        .memberId,
    ).toBeUndefined();
  });

  it('keeps each member’s documents of one name apart when grouping versions', () => {
    const groups = groupVersions([
      document({ id: 'a', documentType: 'benefit_statement', memberId: 'm1', filename: 'S.pdf' }),
      document({ id: 'b', documentType: 'benefit_statement', memberId: 'm2', filename: 'S.pdf' }),
    ]);
    expect(groups).toHaveLength(2);
  });
});
