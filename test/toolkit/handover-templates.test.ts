import { describe, expect, it } from 'vitest';
import {
  importIdentifier,
  importParameters,
  importTemplate,
  notImportable,
} from '../../src/toolkit/export/index.js';
import {
  exportHolderTemplate,
  migrateChoices,
  retainedTemplate,
  retainsEverything,
} from '../../src/toolkit/migrate/index.js';

describe('notImportable', () => {
  it.each([
    ['AWS::S3::Bucket', undefined],
    ['AWS::Logs::LogGroup', undefined],
    ['Custom::Seeder', 'a custom resource cannot be imported'],
    ['AWS::CloudFormation::CustomResource', 'a custom resource cannot be imported'],
    ['AWS::CloudFormation::Stack', undefined],
    ['AWS::Made::Up', 'the resource catalog does not know the type'],
    ['AWS::OpsWorks::App', 'the type has no primary identifier'],
  ])('%s: %s', (type, why) => {
    expect(notImportable(type)).toBe(why);
  });
});

describe('importIdentifier', () => {
  const base = { logicalId: 'X', properties: {}, attributes: {} };
  it.each([
    ['one property is the physical id', { type: 'AWS::S3::Bucket', physicalId: 'b' }, { BucketName: 'b' }],
    [
      'several are the parts of a |-joined id',
      { type: 'AWS::ApiGateway::Resource', physicalId: 'api|res' },
      { RestApiId: 'api', ResourceId: 'res' },
    ],
    [
      'else the recorded properties and attributes',
      {
        type: 'AWS::Lambda::Permission',
        physicalId: 'perm-1',
        properties: { FunctionName: 'fn' },
        attributes: { Id: 'perm-1' },
      },
      { FunctionName: 'fn', Id: 'perm-1' },
    ],
    ['undefined when a part is nowhere', { type: 'AWS::Lambda::Permission', physicalId: 'p' }, undefined],
  ])('%s', (_case, resource, identifier) => {
    expect(importIdentifier({ ...base, ...resource })).toEqual(identifier);
  });
});

describe('importTemplate', () => {
  const template = {
    Resources: {
      Data: { Type: 'AWS::S3::Bucket' },
      Kept: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Delete', DependsOn: ['Data', 'Never'] },
      Never: { Type: 'AWS::SQS::Queue' },
      CDKMetadata: { Type: 'AWS::CDK::Metadata' },
    },
    Outputs: {
      DataName: { Value: { Ref: 'Data' } },
      NeverUrl: { Value: { 'Fn::GetAtt': ['Never', 'QueueUrl'] } },
      NeverSub: { Value: { 'Fn::Sub': 'q-${Never.Arn}' } },
    },
  };
  const result = importTemplate(template, new Set(['Data', 'Kept'])) as {
    Resources: Record<string, Record<string, unknown>>;
    Outputs: Record<string, unknown>;
  };

  it('holds only the recorded resources', () => {
    expect(Object.keys(result.Resources)).toEqual(['Data', 'Kept']);
  });
  it('gives a resource without a DeletionPolicy Retain, and keeps one given', () => {
    expect(result.Resources.Data!.DeletionPolicy).toBe('Retain');
    expect(result.Resources.Kept!.DeletionPolicy).toBe('Delete');
  });
  it("points a nested stack's row at its stack's template, Retain given", () => {
    const nested = importTemplate(
      {
        Resources: {
          Child: {
            Type: 'AWS::CloudFormation::Stack',
            Properties: { TemplateURL: 'cdk', Parameters: { P: 'v' } },
          },
        },
      },
      new Set(['Child']),
      new Map([['Child', 'https://held']]),
    );
    expect(nested.Resources).toEqual({
      Child: {
        Type: 'AWS::CloudFormation::Stack',
        Properties: { TemplateURL: 'https://held', Parameters: { P: 'v' } },
        DeletionPolicy: 'Retain',
      },
    });
  });
  it('drops DependsOn and outputs naming a resource left out', () => {
    expect(result.Resources.Kept!.DependsOn).toEqual(['Data']);
    expect(Object.keys(result.Outputs)).toEqual(['DataName']);
  });
});

describe('importParameters', () => {
  const template = {
    Parameters: {
      Plain: { Type: 'String' },
      Secret: { Type: 'String', NoEcho: true },
      BootstrapVersion: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/cdk-bootstrap/x/version' },
      List: { Type: 'CommaDelimitedList' },
    },
  };
  it('passes the recorded values except NoEcho (masked), SSM-typed (resolved) and undeclared ones', () => {
    expect(
      importParameters(template, {
        Plain: 'a',
        Secret: '****',
        BootstrapVersion: '21',
        List: ['x', 'y'],
        Gone: 'z',
      }),
    ).toEqual({ Plain: 'a', List: 'x,y' });
  });
});

describe('the migration templates', () => {
  const template = {
    Resources: {
      A: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Delete' },
      B: { Type: 'AWS::SQS::Queue' },
      CDKMetadata: { Type: 'AWS::CDK::Metadata' },
    },
  };
  it('retainedTemplate sets Retain on every resource, and then retainsEverything holds', () => {
    expect(retainsEverything(template)).toBe(false);
    const retained = retainedTemplate(template) as typeof template;
    expect(
      Object.values(retained.Resources).map((r) => (r as { DeletionPolicy?: string }).DeletionPolicy),
    ).toEqual(['Retain', 'Retain', 'Retain']);
    expect(retainsEverything(retained)).toBe(true);
  });
  it('retainedTemplate leaves a nested stack deletable, pointing it at its retained template', () => {
    const parent = {
      Resources: {
        A: { Type: 'AWS::S3::Bucket' },
        Child: {
          Type: 'AWS::CloudFormation::Stack',
          Properties: { TemplateURL: 'old', Parameters: { P: 'v' } },
        },
        Other: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'kept' } },
      },
    };
    expect(retainsEverything(parent)).toBe(false);
    const retained = retainedTemplate(parent, new Map([['Child', 'new']])) as Record<string, unknown>;
    expect(retained.Resources).toEqual({
      A: { Type: 'AWS::S3::Bucket', DeletionPolicy: 'Retain' },
      Child: {
        Type: 'AWS::CloudFormation::Stack',
        Properties: { TemplateURL: 'new', Parameters: { P: 'v' } },
      },
      Other: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'kept' } },
    });
    expect(retainsEverything(retained)).toBe(true);
  });
  it('exportHolderTemplate keeps each export at its value beside one placeholder', () => {
    expect(exportHolderTemplate([{ name: 'e1', value: 'v1' }])).toMatchObject({
      Resources: { CdkdMigratedExports: { Type: 'AWS::CloudFormation::WaitConditionHandle' } },
      Outputs: { Export1: { Value: 'v1', Export: { Name: 'e1' } } },
    });
  });
});

describe('migrateChoices', () => {
  const app = { Resources: { A: { Type: 'AWS::S3::Bucket' }, B: { Type: 'AWS::SQS::Queue' } } };
  const resource = (id: string, type: string, physical?: string) => ({
    LogicalResourceId: id,
    ResourceType: type,
    ResourceStatus: 'CREATE_COMPLETE' as const,
    ...(physical ? { PhysicalResourceId: physical } : {}),
  });
  it('chooses each resource the app declares with its type; CDK metadata stays behind', () => {
    expect(
      migrateChoices(
        'S',
        [resource('A', 'AWS::S3::Bucket', 'a'), resource('CDKMetadata', 'AWS::CDK::Metadata', 'm')],
        app,
      ),
    ).toEqual([{ logicalId: 'A', physicalId: 'a' }]);
  });
  it("records a nested stack's row under the stack id cdkd gives it, not CloudFormation's", () => {
    const nestedApp = { Resources: { N: { Type: 'AWS::CloudFormation::Stack' } } };
    expect(
      migrateChoices('S', [resource('N', 'AWS::CloudFormation::Stack', 'cfn-arn')], nestedApp, (id) =>
        id === 'N' ? 'cdkd-arn' : undefined,
      ),
    ).toEqual([{ logicalId: 'N', physicalId: 'cdkd-arn' }]);
  });
  it.each([
    ['one the app does not declare', resource('C', 'AWS::S3::Bucket', 'c'), 'declares no AWS::S3::Bucket C'],
    ['one of another type', resource('B', 'AWS::S3::Bucket', 'b'), 'declares no AWS::S3::Bucket B'],
    [
      'a nested stack the app has none of',
      resource('N', 'AWS::CloudFormation::Stack', 'arn'),
      'N has no physical id',
    ],
    ['one without a physical id', resource('A', 'AWS::S3::Bucket'), 'A has no physical id'],
  ])('refuses %s, naming it', (_case, one, text) => {
    expect(() => migrateChoices('S', [one], app)).toThrow(text);
  });
});
