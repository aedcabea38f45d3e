import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { parseDocument, type DocumentKind } from '../../src/state/documents/document-reader.js';
import { LOCK_DOCUMENT } from '../../src/state/documents/lock-document.js';
import { STATE_DOCUMENT, emptyStateDocument } from '../../src/state/documents/state-document.js';
import { z } from 'zod';

const where = 's3://bucket/cdkd/S/us-east-1/state.json';

function errorOf(fn: () => unknown): CdkdError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CdkdError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('parseDocument', () => {
  it('reads a valid state document and fills defaults', () => {
    const raw = { version: 1, stackName: 'S', region: 'us-east-1', updatedAt: 'now' };
    expect(parseDocument(STATE_DOCUMENT, where, JSON.stringify(raw)).resources).toEqual({});
  });

  it('round-trips a full document', () => {
    const doc = emptyStateDocument('S', 'us-east-1');
    doc.resources.Bucket = {
      type: 'AWS::S3::Bucket',
      physicalId: 'b-1',
      properties: {},
      attributes: { Arn: 'arn:aws:s3:::b-1' },
      provisionedBy: 'sdk',
      dependencies: [],
    };
    expect(parseDocument(STATE_DOCUMENT, where, JSON.stringify(doc))).toEqual(doc);
  });

  it.each([
    ['a torn (truncated) file', '{"version": 1, "stackName": "S", "reg', 'not valid JSON'],
    ['an array', '[]', 'not a JSON object'],
    ['a missing version', '{"stackName":"S"}', '"version" field is missing'],
    [
      'a hand-edited wrong type',
      '{"version":1,"stackName":"S","region":"r","updatedAt":"t","resources":[]}',
      'resources',
    ],
    [
      'a bad resource record',
      '{"version":1,"stackName":"S","region":"r","updatedAt":"t","resources":{"A":{"type":"T"}}}',
      'resources.A.physicalId',
    ],
    ...['[]', 'null', '"text"', '7'].map((value) => [
      `a resource's properties that are ${value}, not an object`,
      `{"version":1,"stackName":"S","region":"r","updatedAt":"t","resources":{"A":{"type":"T","physicalId":"p","provisionedBy":"sdk","properties":${value}}}}`,
      'resources.A.properties: Invalid input: expected an object',
    ]),
    [
      'a template that is an array',
      '{"version":1,"stackName":"S","region":"r","updatedAt":"t","template":[]}',
      'template: Invalid input: expected an object',
    ],
  ])('refuses %s with the key and what to do', (_name, text, reason) => {
    const error = errorOf(() => parseDocument(STATE_DOCUMENT, where, text));
    expect(error.code).toBe('STATE_DOCUMENT_INVALID');
    expect(error.message).toContain(where);
    expect(error.message).toContain(reason);
    expect(error.hint).toContain('version history');
  });

  it('refuses a document from a newer cdkd', () => {
    const error = errorOf(() => parseDocument(LOCK_DOCUMENT, where, '{"version": 7}'));
    expect(error.code).toBe('STATE_VERSION_UNSUPPORTED');
    expect(error.message).toContain('version 7');
    expect(error.hint).toContain('upgrade cdkd');
  });

  it('runs migrations one version at a time up to the current one', () => {
    const kind: DocumentKind<{ version: number; name: string }> = {
      name: 'test',
      currentVersion: 3,
      schema: z.object({ version: z.literal(3), name: z.string() }),
      migrations: {
        1: (doc) => ({ ...doc, title: doc.label }),
        2: (doc) => ({ ...doc, name: String(doc.title).toUpperCase() }),
      },
      repairHint: () => 'fix it',
    };
    expect(parseDocument(kind, where, '{"version":1,"label":"a"}')).toEqual({ version: 3, name: 'A' });
  });
});
