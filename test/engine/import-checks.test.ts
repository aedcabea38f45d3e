import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../../src/engine/engine-context.js';
import {
  holdersElsewhere,
  refuseCdkdBucket,
  refuseHeldElsewhere,
  refuseIdShape,
  refuseRecordedInStack,
  type WantedImport,
} from '../../src/engine/import/import-checks.js';
import { isCdkdError } from '../../src/errors.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';
import { serializeState, StateStore } from '../../src/state/state-store.js';
import { MemoryObjects } from '../helpers/memory-objects.js';

const record = (type: string, physicalId: string, region?: string): ResourceRecord => ({
  type,
  physicalId,
  properties: {},
  attributes: {},
  provisionedBy: 'sdk',
  dependencies: [],
  ...(region !== undefined && { region }),
});

const wanted = (
  type: string,
  physicalId: string,
  region = 'us-east-1',
  logicalId = 'Adopted',
): WantedImport => ({
  logicalId,
  type,
  physicalId,
  region,
});

/** A state bucket holding `stacks` (by state name and region) under the prefix `cdkd`. */
async function bucketWith(
  stacks: Array<{
    name: string;
    region: string;
    resources?: Record<string, ResourceRecord>;
    kept?: ResourceRecord;
  }>,
) {
  const objects = new MemoryObjects();
  const store = new StateStore(objects.asS3Objects(), 'cdkd');
  for (const stack of stacks) {
    const document = {
      ...emptyStateDocument(stack.name, stack.region),
      resources: stack.resources ?? {},
      pendingDeletes: stack.kept ? [{ logicalId: 'Replaced', record: stack.kept }] : [],
    };
    await store.saveText(
      { stackName: stack.name, region: stack.region },
      serializeState(document),
      undefined,
    );
  }
  return { objects, engine: { backend: { store } } as unknown as EngineContext };
}

function thrown(call: () => unknown): { code: string; message: string; hint?: string } {
  try {
    call();
  } catch (error) {
    if (isCdkdError(error))
      return { code: error.code, message: error.message, ...(error.hint && { hint: error.hint }) };
    throw error;
  }
  throw new Error('expected a refusal');
}

const self = { stackName: 'Importer', region: 'us-east-1' };

describe('holdersElsewhere: records of other stacks under the prefix that hold a wanted resource', () => {
  it('finds them in top-level and nested stacks, in other regions for a global id, and in kept old copies', async () => {
    const { engine } = await bucketWith([
      { name: 'Importer', region: 'us-east-1', resources: { Mine: record('AWS::S3::Bucket', 'mine') } },
      { name: 'Owner', region: 'us-east-1', resources: { Data: record('AWS::S3::Bucket', 'shared-data') } },
      { name: 'Parent/Child', region: 'us-east-1', resources: { Role: record('AWS::IAM::Role', 'AppRole') } },
      { name: 'Faraway', region: 'eu-west-1', resources: { Copy: record('AWS::S3::Bucket', 'shared-data') } },
      { name: 'Tables', region: 'eu-west-1', resources: { T: record('AWS::DynamoDB::Table', 'orders') } },
      {
        name: 'Replacer',
        region: 'us-east-1',
        kept: record('AWS::SQS::Queue', 'https://q/123456789012/old'),
      },
    ]);
    const bucket = wanted('AWS::S3::Bucket', 'shared-data');
    const role = wanted('AWS::IAM::Role', 'approle', 'us-east-1', 'R');
    const table = wanted('AWS::DynamoDB::Table', 'orders', 'us-east-1', 'T');
    const queue = wanted('AWS::SQS::Queue', 'https://q/123456789012/old', 'us-east-1', 'Q');
    const mine = wanted('AWS::S3::Bucket', 'mine', 'us-east-1', 'M');
    const found = await holdersElsewhere(engine, self, [bucket, role, table, queue, mine]);
    expect(found.unreadable).toEqual([]);
    expect(found.holders.get(bucket)).toEqual([
      { stackName: 'Faraway', region: 'eu-west-1', logicalId: 'Copy' },
      { stackName: 'Owner', region: 'us-east-1', logicalId: 'Data' },
    ]);
    // IAM compares role names regardless of case (spec 000).
    expect(found.holders.get(role)).toEqual([
      { stackName: 'Parent/Child', region: 'us-east-1', logicalId: 'Role' },
    ]);
    // A table named alike in another region is another table.
    expect(found.holders.has(table)).toBe(false);
    expect(found.holders.get(queue)).toEqual([
      { stackName: 'Replacer', region: 'us-east-1', logicalId: 'Replaced', pendingDelete: true },
    ]);
    // The importing stack's own records are its own business (refuseRecordedInStack).
    expect(found.holders.has(mine)).toBe(false);
  });

  it('names the stacks whose state cannot be read, and a legacy document that names no region', async () => {
    const { engine, objects } = await bucketWith([]);
    await objects.put('cdkd/Torn/us-east-1/state.json', '{"version":1,');
    await objects.put('cdkd/Old/state.json', '{}');
    const found = await holdersElsewhere(engine, self, [wanted('AWS::S3::Bucket', 'b')]);
    expect(found.unreadable).toHaveLength(2);
    expect(found.unreadable.join('\n')).toMatch(
      /^Old \(a legacy state document that names no region\)\nTorn \(us-east-1\): /,
    );
  });
});

describe('refuseHeldElsewhere', () => {
  const bucket = wanted('AWS::S3::Bucket', 'shared-data');
  const holders = new Map([[bucket, [{ stackName: 'Owner', region: 'us-east-1', logicalId: 'Data' }]]]);

  it('refuses, naming the owning stack and logical id, and what --force would mean', () => {
    const refusal = thrown(() => refuseHeldElsewhere('Importer', { holders, unreadable: [] }, false));
    expect(refusal.code).toBe('IMPORT_MANAGED_ELSEWHERE');
    expect(refusal.message).toContain('Owner (us-east-1) manages it as Data');
    expect(refusal.message).toContain('destroying either would delete it');
    expect(refusal.hint).toContain('cdkd state orphan Owner Data --region us-east-1');
    expect(refusal.hint).toContain('--force');
  });

  it('under --force, returns who else holds each resource', () => {
    expect(refuseHeldElsewhere('Importer', { holders, unreadable: [] }, true)).toEqual(
      new Map([['Adopted', holders.get(bucket)]]),
    );
  });

  it('refuses when another stack cannot be read, unless --force', () => {
    const found = { holders: new Map(), unreadable: ['Torn (us-east-1): bad JSON'] };
    expect(thrown(() => refuseHeldElsewhere('Importer', found, false)).code).toBe('IMPORT_OWNER_UNKNOWN');
    expect(refuseHeldElsewhere('Importer', found, true).size).toBe(0);
  });
});

describe('refuseRecordedInStack: one resource under two logical ids of one stack', () => {
  const document = {
    ...emptyStateDocument('Importer', 'us-east-1'),
    resources: { Existing: record('AWS::IAM::Role', 'AppRole') },
    pendingDeletes: [{ logicalId: 'Swapped', record: record('AWS::S3::Bucket', 'old-copy') }],
  };
  it.each([
    [wanted('AWS::IAM::Role', 'AppRole'), 'as Existing'],
    [wanted('AWS::IAM::Role', 'APPROLE'), 'as Existing'],
    [wanted('AWS::S3::Bucket', 'old-copy'), 'as the old copy of Swapped'],
  ])('%j is refused (%s)', (one, as) => {
    const refusal = thrown(() => refuseRecordedInStack('Importer', document, one));
    expect(refusal.code).toBe('IMPORT_ALREADY_MANAGED');
    expect(refusal.message).toContain(as);
  });

  it('lets another resource through', () => {
    expect(() =>
      refuseRecordedInStack('Importer', document, wanted('AWS::IAM::Role', 'Other')),
    ).not.toThrow();
  });
});

describe("refuseCdkdBucket: cdkd's own buckets, always", () => {
  const own = { stateBucket: 'custom-state', accountId: '123456789012' };
  it.each([
    ['AWS::S3::Bucket', 'custom-state', 'state'],
    ['AWS::S3::Bucket', 'cdkd-state-123456789012', 'state'],
    ['AWS::S3::BucketPolicy', 'cdkd-assets-123456789012-eu-west-1', 'asset'],
  ])('%s %s is refused as the %s bucket', (type, id, role) => {
    const refusal = thrown(() => refuseCdkdBucket('S', wanted(type, id), own));
    expect(refusal.code).toBe('IMPORT_CDKD_BUCKET');
    expect(refusal.message).toContain(`cdkd's own ${role} bucket`);
  });

  it.each([
    ['AWS::S3::Bucket', 'my-data'],
    ['AWS::SSM::Parameter', 'cdkd-state-123456789012'],
  ])('%s %s is not one', (type, id) => {
    expect(() => refuseCdkdBucket('S', wanted(type, id), own)).not.toThrow();
  });
});

describe('refuseIdShape', () => {
  it('names the logical id, the type, the shape expected, and an example in the stack account', () => {
    const refusal = thrown(() =>
      refuseIdShape(wanted('AWS::SQS::Queue', 'my-queue', 'us-east-1', 'Q'), 'sdk', {
        accountId: '123456789012',
      }),
    );
    expect(refusal).toEqual({
      code: 'IMPORT_ID_INVALID',
      message:
        "Cannot import my-queue as Q (AWS::SQS::Queue): it cannot be the queue's URL; cdkd identifies AWS::SQS::Queue resources by the queue's URL.",
      hint: 'Give it as --resource Q=https://sqs.us-east-1.amazonaws.com/123456789012/my-queue (aws sqs get-queue-url --queue-name <name> prints it).',
    });
  });
});
