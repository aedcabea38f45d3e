import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  attributesOf,
  isKnownType,
  knownTypes,
  nestedReplacementPathsOf,
  primaryIdentifierOf,
  replacementOf,
  schemaFor,
} from '../../src/resource-types/schemas.js';

describe('the resource schema index build', () => {
  it('builds from the service spec, covers > 1,500 types and stays well under 2 MB', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'cdkd-index-')), 'resource-index.json');
    execFileSync(process.execPath, ['scripts/build-resource-index.mjs', out], { stdio: 'pipe' });
    const index = JSON.parse(readFileSync(out, 'utf8')) as {
      version: number;
      types: Record<string, unknown>;
    };
    expect(index.version).toBe(1);
    expect(Object.keys(index.types).length).toBeGreaterThan(1500);
    expect(statSync(out).size).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('schema lookups', () => {
  it('knows > 1,500 types and not a custom resource', () => {
    expect(knownTypes().length).toBeGreaterThan(1500);
    expect(isKnownType('AWS::Lambda::Function')).toBe(true);
    expect(isKnownType('Custom::Thing')).toBe(false);
    expect(schemaFor('Custom::Thing')).toBeUndefined();
  });

  it('reads every type from its own line of the index as the whole index parsed holds it', () => {
    const index = JSON.parse(readFileSync('generated/resource-index.json', 'utf8')) as {
      types: Record<string, { props: string[]; attrs?: string[]; id?: string[]; arn?: string }>;
    };
    const types = Object.keys(index.types);
    // The first and last lines are laid out differently (after the header, before the closing braces).
    expect(types.length).toBe(knownTypes().length);
    for (const type of types) {
      const schema = schemaFor(type);
      expect(schema?.properties, type).toEqual(index.types[type]!.props);
      expect(schema?.attributes, type).toEqual(index.types[type]!.attrs ?? []);
      expect(schema?.primaryIdentifier, type).toEqual(index.types[type]!.id ?? []);
      expect(schema?.arnTemplate, type).toBe(index.types[type]!.arn);
    }
  });

  it('knows AWS::Lambda::Function attributes, identifier, ARN template and required properties', () => {
    expect(attributesOf('AWS::Lambda::Function')).toEqual(
      expect.arrayContaining(['Arn', 'SnapStartResponse.ApplyOn', 'SnapStartResponse.OptimizationStatus']),
    );
    expect(primaryIdentifierOf('AWS::Lambda::Function')).toEqual(['FunctionName']);
    const schema = schemaFor('AWS::Lambda::Function');
    expect(schema?.arnTemplate).toBe('arn:${Partition}:lambda:${Region}:${Account}:function:${FunctionName}');
    expect(schema?.requiredProperties).toEqual(['Code', 'Role']);
    expect(schema?.tagProperty).toBe('Tags');
  });

  it('knows the value kind of a property only where the schema is sure of it', () => {
    const kinds = schemaFor('AWS::SQS::Queue')!.propertyKinds;
    expect(kinds.get('VisibilityTimeout')).toBe('n');
    expect(kinds.get('FifoQueue')).toBe('b');
    expect(kinds.get('QueueName')).toBe('s');
    expect(kinds.get('Tags')).toBe('t');
    // JSON or a string, and once JSON only: either may be sent.
    expect(kinds.has('RedrivePolicy')).toBe(false);
    expect(schemaFor('AWS::Lambda::Function')!.propertyKinds.get('Architectures')).toBe('l');
    expect(schemaFor('AWS::Lambda::Function')!.propertyKinds.get('Code')).toBe('o');
  });

  it('gives Ref its own identifier where it differs from the Cloud Control one', () => {
    expect(schemaFor('AWS::ECS::Service')?.primaryIdentifier).toEqual(['ServiceArn', 'Cluster']);
    expect(schemaFor('AWS::ECS::Service')?.refIdentifier).toEqual(['ServiceArn']);
  });

  it.each([
    // Spec 004 "The identity properties that force a replacement".
    ['AWS::S3::Bucket', 'BucketName', 'yes'],
    ['AWS::DynamoDB::Table', 'TableName', 'yes'],
    ['AWS::DynamoDB::Table', 'KeySchema', 'yes'],
    ['AWS::SQS::Queue', 'QueueName', 'yes'],
    ['AWS::SQS::Queue', 'FifoQueue', 'yes'],
    ['AWS::SNS::Topic', 'TopicName', 'yes'],
    ['AWS::Logs::LogGroup', 'LogGroupName', 'yes'],
    ['AWS::IAM::Role', 'RoleName', 'yes'],
    ['AWS::Lambda::Function', 'FunctionName', 'yes'],
    ['AWS::IAM::Group', 'GroupName', 'yes'],
    ['AWS::EC2::SecurityGroup', 'GroupName', 'yes'],
    ['AWS::SSM::Parameter', 'Name', 'yes'],
    // In place.
    ['AWS::SQS::Queue', 'VisibilityTimeout', 'no'],
    ['AWS::Lambda::Function', 'MemorySize', 'no'],
    // Conditional.
    ['AWS::EC2::Instance', 'InstanceType', 'maybe'],
    ['AWS::RDS::DBInstance', 'Engine', 'maybe'],
    // Not in the index.
    ['Custom::Thing', 'ServiceToken', 'unknown'],
  ])('replacementOf(%s, %s) is %s', (type, property, verdict) => {
    expect(replacementOf(type, property)).toBe(verdict);
  });

  it('keeps nested create-only paths below an in-place property', () => {
    expect(nestedReplacementPathsOf('AWS::EC2::Instance', 'BlockDeviceMappings')).toEqual(['*.Ebs.KmsKeyId']);
    expect(nestedReplacementPathsOf('AWS::EFS::AccessPoint', 'CreationInfo')).toEqual(
      expect.arrayContaining(['OwnerUid', 'OwnerGid', 'Permissions']),
    );
  });
});

describe('a missing or foreign index', () => {
  afterEach(() => {
    vi.doUnmock('node:fs');
    vi.resetModules();
  });

  it('is a RESOURCE_INDEX_MISSING error that says to run npm run build', async () => {
    vi.resetModules();
    vi.doMock('node:fs', async (importOriginal) => {
      const fs = await importOriginal<typeof import('node:fs')>();
      return {
        ...fs,
        readFileSync: (...args: Parameters<typeof fs.readFileSync>) => {
          if (String(args[0]).endsWith('resource-index.json'))
            throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
          return fs.readFileSync(...args);
        },
      };
    });
    const schemas = await import('../../src/resource-types/schemas.js');
    expect(() => schemas.schemaFor('AWS::SQS::Queue')).toThrow(
      expect.objectContaining({
        code: 'RESOURCE_INDEX_MISSING',
        hint: expect.stringContaining('npm run build'),
      }),
    );
  });

  it.each([
    ['a newer version', '{"version":2,"source":"x","types":{\n"AWS::SQS::Queue":{"props":[]}\n}}\n'],
    ['one line of JSON', '{"version":1,"source":"x","types":{"AWS::SQS::Queue":{"props":[]}}}'],
    ['not JSON', 'garbage\n'],
  ])('written as %s is a RESOURCE_INDEX_INVALID error that says to rebuild', async (_, text) => {
    vi.resetModules();
    vi.doMock('node:fs', async (importOriginal) => {
      const fs = await importOriginal<typeof import('node:fs')>();
      return {
        ...fs,
        readFileSync: (...args: Parameters<typeof fs.readFileSync>) =>
          String(args[0]).endsWith('resource-index.json') ? Buffer.from(text) : fs.readFileSync(...args),
      };
    });
    const schemas = await import('../../src/resource-types/schemas.js');
    expect(() => schemas.schemaFor('AWS::SQS::Queue')).toThrow(
      expect.objectContaining({
        code: 'RESOURCE_INDEX_INVALID',
        hint: expect.stringContaining('npm run build'),
      }),
    );
  });
});
