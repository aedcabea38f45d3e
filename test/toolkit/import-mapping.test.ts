import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  choicesFromMapping,
  mappingFromChoices,
  readResourceMapping,
  writeResourceMapping,
} from '../../src/toolkit/import/import-mapping.js';

const types = {
  Store: 'AWS::S3::Bucket',
  Jobs: 'AWS::SQS::Queue',
  Invoke: 'AWS::Lambda::Permission',
  Custom: 'Custom::Thing',
  CDKMetadata: 'AWS::CDK::Metadata',
};

describe('choicesFromMapping: identifier properties to the physical id cdkd records', () => {
  const rows: Array<
    [string, Record<string, Record<string, string>>, Array<{ logicalId: string; physicalId: string }>]
  > = [
    [
      'a type identified by one property takes its value',
      { Store: { BucketName: 'my-data' } },
      [{ logicalId: 'Store', physicalId: 'my-data' }],
    ],
    [
      'a queue by its URL',
      { Jobs: { QueueUrl: 'https://q/1' } },
      [{ logicalId: 'Jobs', physicalId: 'https://q/1' }],
    ],
    [
      'a type identified by several joins them by | in the schema order, whatever the file order',
      { Invoke: { Id: 'perm-1', FunctionName: 'fn' } },
      [{ logicalId: 'Invoke', physicalId: 'fn|perm-1' }],
    ],
    [
      'a type without a schema is identified by its physical id',
      { Custom: { PhysicalId: 'c-1' } },
      [{ logicalId: 'Custom', physicalId: 'c-1' }],
    ],
  ];
  it.each(rows)('%s', (_, mapping, expected) => {
    expect(choicesFromMapping(mapping, types)).toEqual(expected);
  });

  const refusals: Array<[string, Record<string, Record<string, string>>, string, string]> = [
    ['a logical id the template lacks', { Nope: { BucketName: 'x' } }, 'IMPORT_UNKNOWN_RESOURCE', 'Nope'],
    [
      'another property than the identifier',
      { Jobs: { QueueName: 'q' } },
      'IMPORT_MAPPING_IDENTIFIER',
      'is identified by QueueUrl',
    ],
    [
      'one of two identifier properties missing',
      { Invoke: { FunctionName: 'fn' } },
      'IMPORT_MAPPING_IDENTIFIER',
      'FunctionName and Id',
    ],
    [
      'an extra property beside the identifier',
      { Store: { BucketName: 'b', Region: 'x' } },
      'IMPORT_MAPPING_IDENTIFIER',
      'BucketName, Region',
    ],
  ];
  it.each(refusals)('refuses %s', (_, mapping, code, text) => {
    let caught: unknown;
    try {
      choicesFromMapping(mapping, types);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code });
    expect((caught as Error).message).toContain(text);
  });
});

describe('mappingFromChoices is the inverse the recorded file holds', () => {
  it('round-trips single and composite identifiers', () => {
    const mapping = { Store: { BucketName: 'my-data' }, Invoke: { FunctionName: 'fn', Id: 'perm-1' } };
    expect(mappingFromChoices(choicesFromMapping(mapping, types), types)).toEqual(mapping);
  });
});

describe('readResourceMapping and writeResourceMapping', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdkd-mapping-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const rows: Array<[string, { file: string } | { inline: string }, string]> = [
    ['a missing file', { file: join(dir, 'absent.json') }, 'cannot be read'],
    ['a file that is not JSON', { file: file('bad.json', '{ nope') }, 'is not JSON'],
    [
      'inline JSON of the wrong shape, naming where',
      { inline: '{"Store": {"BucketName": 3}}' },
      'at Store.BucketName',
    ],
    ['an array', { inline: '[]' }, 'is not a resource mapping'],
  ];
  it.each(rows)('refuses %s, naming the flag', (_, source, text) => {
    expect(() => readResourceMapping(source)).toThrow(text);
    expect(() => readResourceMapping(source)).toThrow(
      'file' in source ? '--resource-mapping ' : '--resource-mapping-inline',
    );
  });

  it('reads what it wrote', () => {
    const path = join(dir, 'out.json');
    writeResourceMapping(path, { Store: { BucketName: 'b' } });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ Store: { BucketName: 'b' } });
    expect(readResourceMapping({ file: path })).toEqual({ Store: { BucketName: 'b' } });
  });

  it('names a file it cannot write', () => {
    expect(() => writeResourceMapping(join(dir, 'no-such-dir', 'x.json'), {})).toThrow(
      '--record-resource-mapping',
    );
  });
});

describe('the unknown-id refusal', () => {
  it('lists the ids a mapping can name, without the CDK metadata row', () => {
    let caught: unknown;
    try {
      choicesFromMapping({ Nope: { BucketName: 'x' } }, types);
    } catch (error) {
      caught = error;
    }
    expect((caught as { hint?: string }).hint).toContain('Store, Jobs, Invoke, Custom.');
    expect((caught as { hint?: string }).hint).not.toContain('CDKMetadata');
  });
});
