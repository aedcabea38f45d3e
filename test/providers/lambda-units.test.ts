import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { attributesOf } from '../../src/resource-types/schemas.js';
import { integer } from '../../src/providers/lambda/common.js';
import { FUNCTION_NAME_RULES, LambdaFunctionProvider } from '../../src/providers/lambda/function.js';
import { configurationInput, updateCalls } from '../../src/providers/lambda/function-properties.js';
import { inlineZip } from '../../src/providers/lambda/inline-zip.js';
import { STATEMENT_ID_RULES } from '../../src/providers/lambda/permission.js';
import { REF_ATTRIBUTES } from '../../src/providers/lambda/ref-attributes.js';
import { readinessOf } from '../../src/providers/lambda/waits.js';
import { generatePhysicalName } from '../../src/providers/physical-names.js';

const uncoveredFunctionProperties = (properties: Record<string, unknown>): string[] =>
  new LambdaFunctionProvider().uncoveredProperties('AWS::Lambda::Function', properties);

describe('Lambda decision tables', () => {
  it.each([
    [{ State: 'Pending', LastUpdateStatus: 'InProgress' }, 'active', 'waiting'],
    [{ State: 'Active', LastUpdateStatus: 'Successful' }, 'active', 'ready'],
    [{ State: 'Active', LastUpdateStatus: 'InProgress' }, 'active', 'ready'],
    [{ State: 'Active', LastUpdateStatus: 'InProgress' }, 'updated', 'waiting'],
    [{ State: 'Active', LastUpdateStatus: 'Successful' }, 'updated', 'ready'],
    [{ State: 'Active', LastUpdateStatus: 'Failed' }, 'updated', 'failed'],
    [{ State: 'Failed' }, 'active', 'failed'],
    [{ State: 'Inactive' }, 'active', 'waiting'],
  ] as const)('readiness of %o waiting for %s is %s', (config, readiness, verdict) => {
    expect(readinessOf(config, readiness)).toBe(verdict);
  });

  it.each([
    [['Code'], { code: true, configuration: false, tags: false, concurrency: false }],
    [['Architectures'], { code: true, configuration: false, tags: false, concurrency: false }],
    [['Environment', 'Timeout'], { code: false, configuration: true, tags: false, concurrency: false }],
    [['Code', 'Role'], { code: true, configuration: true, tags: false, concurrency: false }],
    [
      ['Tags', 'ReservedConcurrentExecutions'],
      { code: false, configuration: false, tags: true, concurrency: true },
    ],
  ])('changing %o calls %o', (changed, calls) => {
    expect(updateCalls(changed)).toEqual(calls);
  });

  it.each([
    [['FunctionName'], false],
    [['PackageType'], false],
    [['Code', 'Role', 'Handler', 'Runtime', 'MemorySize', 'Timeout', 'Layers', 'VpcConfig'], true],
    [
      [
        'Environment',
        'Architectures',
        'DeadLetterConfig',
        'Description',
        'Tags',
        'ReservedConcurrentExecutions',
      ],
      true,
    ],
  ])('changing %o can update in place: %s', (changed, inPlace) => {
    expect(new LambdaFunctionProvider().canUpdateInPlace('AWS::Lambda::Function', changed)).toBe(inPlace);
  });

  it('reports what it cannot send so the resource routes to Cloud Control', () => {
    expect(uncoveredFunctionProperties({ Role: 'r', Code: { ZipFile: 'x' }, Handler: 'h' })).toEqual([]);
    expect(
      uncoveredFunctionProperties({ RuntimeManagementConfig: { UpdateRuntimeOn: 'Manual' }, Role: 'r' }),
    ).toEqual(['RuntimeManagementConfig']);
    expect(
      uncoveredFunctionProperties({
        Role: 'r',
        TracingConfig: { Mode: 'Active' },
        EphemeralStorage: { Size: 1024 },
        KmsKeyArn: 'arn:aws:kms:us-east-1:1:key/k',
        LoggingConfig: { LogGroup: 'g' },
        FileSystemConfigs: [],
        SnapStart: { ApplyOn: 'None' },
      }),
    ).toEqual([]);
    expect(uncoveredFunctionProperties({ Code: { ImageUri: 'x' }, PackageType: 'Image' })).toEqual([
      'Code',
      'PackageType',
    ]);
    expect(uncoveredFunctionProperties({ Code: { S3Bucket: 'b', S3Key: 'k' }, PackageType: 'Zip' })).toEqual(
      [],
    );
  });

  it('sends dropped configuration at Lambda defaults, so an update clears it', () => {
    expect(configurationInput({ Role: 'r' }, 'fn')).toMatchObject({
      Timeout: 3,
      MemorySize: 128,
      Description: '',
      Environment: { Variables: {} },
      Layers: [],
      VpcConfig: { SubnetIds: [], SecurityGroupIds: [] },
      DeadLetterConfig: { TargetArn: '' },
    });
    expect(configurationInput({ Timeout: '30', MemorySize: 1024 }, 'fn')).toMatchObject({
      Timeout: 30,
      MemorySize: 1024,
    });
  });

  it('coerces CloudFormation number strings and refuses what is not an integer', () => {
    expect(integer('30', 'Timeout')).toBe(30);
    expect(integer(undefined, 'Timeout')).toBeUndefined();
    expect(() => integer('3.5', 'Timeout')).toThrow(/Timeout must be an integer/);
  });
});

describe('generated names', () => {
  const long = 'S'.repeat(80);
  it.each([
    ['function names', FUNCTION_NAME_RULES, 64, /^[a-zA-Z0-9-_]+$/],
    ['statement ids', STATEMENT_ID_RULES, 100, /^[a-zA-Z0-9-_.]+$/],
  ])('%s fit the limit and character set', (_what, rules, limit, charset) => {
    const name = generatePhysicalName(`${long}.stack`, `Logical/${long}`, rules);
    expect(name.length).toBeLessThanOrEqual(limit);
    expect(name).toMatch(charset);
    expect(generatePhysicalName('App', 'Fn', rules)).toMatch(/^App-Fn-[A-Z0-9]{12}$/);
  });
});

describe('inline code', () => {
  it.each([
    ['nodejs20.x', 'index.js'],
    ['python3.12', 'index.py'],
  ])('%s source is zipped as %s', (runtime, fileName) => {
    const source = 'print(1)';
    const zip = Buffer.from(inlineZip(source, runtime));
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.subarray(30, 30 + fileName.length).toString()).toBe(fileName);
    expect(zip.readUInt32LE(14)).toBe(crc32(Buffer.from(source)));
    expect(zip.subarray(30 + fileName.length, 30 + fileName.length + source.length).toString()).toBe(source);
    expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50);
  });
});

describe('the Ref/GetAtt table', () => {
  it('lists exactly the schema attributes of each type', () => {
    for (const [type, row] of Object.entries(REF_ATTRIBUTES)) {
      expect(Object.keys(row.attributes).sort(), type).toEqual([...attributesOf(type)].sort());
    }
  });
});
