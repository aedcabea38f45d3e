import { describe, expect, it } from 'vitest';
import { parseTemplate, prepareTemplate, type ExternalResolver } from '../../src/template/index.js';
import { describeCorpus, fakeResolver, fakeSsm, loadCorpusTemplate } from './corpus-support.js';
import { expectTemplateError } from './helpers.js';

const pseudo = { accountId: '123456789012', region: 'eu-west-1', stackName: 'Shop' };
const resolver: ExternalResolver = {
  ref: (id) => `${id}-physical`,
  getAtt: (id, attribute) => `${id}/${attribute}`,
  importValue: (name) => (name === 'Net-VpcId' ? 'vpc-0abc' : undefined),
};

const yaml = `
Parameters:
  Env:
    Type: String
    AllowedValues: [dev, prod]
    Default: dev
  DbPassword:
    Type: String
    NoEcho: true
    MinLength: 8
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  IsDev: !Not [!Condition IsProd]
Mappings:
  Sizes:
    dev: { Instance: t3.micro }
    prod: { Instance: m5.large }
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Sub "\${AWS::StackName}-\${Env}-queue"
      KmsMasterKeyId: !If [IsProd, !Ref Key, !Ref AWS::NoValue]
  Key:
    Type: AWS::KMS::Key
    Condition: IsProd
  Db:
    Type: AWS::RDS::DBInstance
    DeletionPolicy: !If [IsProd, Snapshot, Delete]
    DependsOn: Queue
    Properties:
      DBInstanceClass: !FindInMap [Sizes, !Ref Env, Instance]
      MasterUserPassword: !Ref DbPassword
      VpcId: !ImportValue Net-VpcId
      Dsn: "{{resolve:secretsmanager:db:SecretString:dsn}}"
      QueueArn: !GetAtt Queue.Arn
Outputs:
  QueueUrl:
    Value: !Ref Queue
    Export:
      Name: !Sub "\${AWS::StackName}-QueueUrl"
  KeyArn:
    Condition: IsProd
    Value: !GetAtt Key.Arn
`;

describe('prepareTemplate on a YAML template', () => {
  const template = parseTemplate(yaml, 'shop.yaml');

  it('resolves parameters and conditions and picks the active resources and outputs', async () => {
    const prepared = await prepareTemplate(template, { pseudo, parameters: { DbPassword: 'correct horse' } });
    expect(Object.fromEntries(prepared.conditions)).toEqual({ IsProd: false, IsDev: true });
    expect(prepared.activeResources).toEqual(['Queue', 'Db']);
    expect(Object.fromEntries(prepared.removedResources)).toEqual({ Key: 'IsProd' });
    expect(prepared.activeOutputs).toEqual(['QueueUrl']);
    expect(prepared.maskedParameters()).toEqual({ Env: 'dev', DbPassword: '***' });
  });

  it('evaluates properties, dropping AWS::NoValue and keeping dynamic references', async () => {
    const prepared = await prepareTemplate(template, { pseudo, parameters: { DbPassword: 'correct horse' } });
    expect(prepared.evaluateResourceProperties('Queue', resolver)).toEqual({ QueueName: 'Shop-dev-queue' });
    expect(prepared.evaluateResourceProperties('Db', resolver)).toEqual({
      DBInstanceClass: 't3.micro',
      MasterUserPassword: 'correct horse',
      VpcId: 'vpc-0abc',
      Dsn: '{{resolve:secretsmanager:db:SecretString:dsn}}',
      QueueArn: 'Queue/Arn',
    });
    expect(prepared.resourcePolicies('Db')).toEqual({
      deletionPolicy: 'Delete',
      updateReplacePolicy: undefined,
    });
    expect(prepared.evaluateOutputs(resolver)).toEqual([
      { name: 'QueueUrl', value: 'Queue-physical', description: undefined, exportName: 'Shop-QueueUrl' },
    ]);
    expect(prepared.dependencyGraph().topologicalOrder()).toEqual(['Queue', 'Db']);
  });

  it('switches branches, resources and outputs with the condition', async () => {
    const prepared = await prepareTemplate(template, {
      pseudo,
      parameters: { Env: 'prod', DbPassword: 'correct horse' },
    });
    expect(prepared.activeResources).toEqual(['Queue', 'Key', 'Db']);
    expect(prepared.evaluateResourceProperties('Queue', resolver)).toMatchObject({
      KmsMasterKeyId: 'Key-physical',
    });
    expect(prepared.evaluateOutputs(resolver).map((o) => o.name)).toEqual(['QueueUrl', 'KeyArn']);
    expect(prepared.resourcePolicies('Db').deletionPolicy).toBe('Snapshot');
    expect(prepared.dependencyGraph().dependencies('Queue')).toEqual(['Key']);
  });

  it('refuses to evaluate a resource a condition removed', async () => {
    const prepared = await prepareTemplate(template, { pseudo, parameters: { DbPassword: 'correct horse' } });
    expectTemplateError(
      () => prepared.evaluateResourceProperties('Key', resolver),
      'INVALID_REFERENCE',
      'Resources.Key',
      'condition IsProd is false',
    );
  });

  it('refuses to evaluate an output a condition removed', async () => {
    const prepared = await prepareTemplate(template, { pseudo, parameters: { DbPassword: 'correct horse' } });
    expectTemplateError(
      () => prepared.evaluateOutput('KeyArn', resolver),
      'INVALID_REFERENCE',
      'Outputs.KeyArn',
      'condition IsProd is false',
    );
  });

  it('reports a missing export by name', async () => {
    const prepared = await prepareTemplate(template, { pseudo, parameters: { DbPassword: 'correct horse' } });
    expectTemplateError(
      () => prepared.evaluateResourceProperties('Db', { ...resolver, importValue: () => undefined }),
      'IMPORT_NOT_FOUND',
      'Resources.Db.Properties.VpcId',
      '"Net-VpcId"',
    );
  });

  it('masks a NoEcho value that fails a constraint', async () => {
    const error = await prepareTemplate(template, { pseudo, parameters: { DbPassword: 'short' } }).catch(
      (e: Error) => e,
    );
    expect(error).toMatchObject({ code: 'PARAMETER_INVALID' });
    expect((error as Error).message).toContain('value *** for parameter DbPassword');
    expect((error as Error).message).not.toContain('short');
  });

  it('rejects a value outside AllowedValues', async () => {
    const error = await prepareTemplate(template, {
      pseudo,
      parameters: { Env: 'staging', DbPassword: 'correct horse' },
    }).catch((e: Error) => e);
    expect(error).toMatchObject({
      code: 'PARAMETER_INVALID',
      message: expect.stringContaining('Parameters.Env: value "staging"'),
    });
  });

  it('names an output whose condition is undefined', async () => {
    const bad = parseTemplate(JSON.stringify({ Outputs: { O: { Value: 'v', Condition: 'Nope' } } }));
    const error = await prepareTemplate(bad, { pseudo }).catch((e: Error) => e);
    expect(error).toMatchObject({
      code: 'TEMPLATE_INVALID',
      message: expect.stringContaining('Outputs.O.Condition'),
    });
  });
});

describeCorpus('corpus regression fixtures', () => {
  it('evaluates an Fn::If DeletionPolicy (cloudformation-include intrinsic-deletion-policy)', async () => {
    const prepared = await prepareTemplate(
      loadCorpusTemplate('cloudformation-include__integ.intrinsic-deletion-policy__Stack.template.json'),
      { pseudo },
    );
    expect(prepared.resourcePolicies('Bucket')).toEqual({
      deletionPolicy: 'Delete',
      updateReplacePolicy: undefined,
    });
  });

  it.each<[string, unknown]>([
    ['us-east-1', { EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' }],
    ['cn-north-1', undefined],
  ])('drops Kinesis stream encryption by region condition (%s)', async (region, encryption) => {
    const template = loadCorpusTemplate(
      'aws-dynamodb__integ.dynamodb.kinesis-stream__aws-cdk-dynamodb-kinesis-stream.template.json',
    );
    const prepared = await prepareTemplate(template, {
      pseudo: { ...pseudo, region },
      ssmParameter: fakeSsm,
    });
    const props = prepared.evaluateResourceProperties('Stream790BDEE4', fakeResolver);
    expect(props.StreamEncryption).toEqual(encryption);
    expect(prepared.dependencyGraph().dependencies('TableCD117FA1')).toEqual(['Stream790BDEE4']);
  });

  it('applies Fn::FindInMap DefaultValue (core cfn-mappings-find-in-map)', async () => {
    const template = loadCorpusTemplate(
      'core__integ.cfn-mappings-find-in-map__core-cfn-mapping-1.template.json',
    );
    const prepared = await prepareTemplate(template, { pseudo });
    expect(prepared.evaluateOutputs(fakeResolver).map((o) => o.value)).toEqual([
      'Yes',
      'foob',
      'foob',
      'No',
      'bart',
      'bart',
    ]);
  });

  it('carves IPv6 subnets from a dual-stack VPC (elbv2 nlb.dualstack.internal)', async () => {
    const template = loadCorpusTemplate(
      'aws-elasticloadbalancingv2__integ.nlb.dualstack.internal__aws-cdk-nlb-dualstack-internal.template.json',
    );
    const prepared = await prepareTemplate(template, { pseudo, ssmParameter: fakeSsm });
    const subnets = prepared.activeResources.filter(
      (id) => template.resources.get(id)!.type === 'AWS::EC2::Subnet',
    );
    const blocks = subnets.map((id) => prepared.evaluateResourceProperties(id, fakeResolver).Ipv6CidrBlock);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(block).toMatch(/^2001:db8:1234:1a0[0-9a-f]::\/64$/);
    expect(new Set(blocks).size).toBe(blocks.length);
  });
});
