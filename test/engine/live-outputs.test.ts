import { describe, expect, it } from 'vitest';
import { LiveAttributes } from '../../src/engine/planning/live-attributes.js';
import { refuseChangedExportsInUse } from '../../src/engine/planning/export-guards.js';
import { ExportIndex } from '../../src/engine/export-index.js';
import { declaredExportValues, evaluateOutputs, outputChanges } from '../../src/engine/planning/outputs.js';
import { pendingValue } from '../../src/engine/planning/state-resolver.js';
import type { LiveAttributeAnswer } from '../../src/providers/live-attributes/index.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { prepareTemplate, validateTemplate, type ExternalResolver } from '../../src/template/index.js';

const records: Record<string, ResourceRecord> = {
  Host: {
    type: 'AWS::EC2::Instance',
    physicalId: 'i-0abc',
    properties: {},
    attributes: {},
    provisionedBy: 'cc-api',
    dependencies: [],
  },
  Network: {
    type: 'AWS::EC2::VPC',
    physicalId: 'vpc-2',
    properties: {},
    attributes: {},
    provisionedBy: 'cc-api',
    dependencies: [],
  },
  Group: {
    type: 'AWS::EC2::SecurityGroup',
    physicalId: 'sg-1',
    properties: {},
    attributes: { VpcId: '' },
    provisionedBy: 'cc-api',
    dependencies: [],
  },
};

const template = validateTemplate(
  {
    Resources: {
      Host: { Type: 'AWS::EC2::Instance', Properties: { ImageId: 'ami-1' } },
      Group: { Type: 'AWS::EC2::SecurityGroup', Properties: { GroupDescription: 'g' } },
      Later: { Type: 'AWS::SQS::Queue' },
    },
    Outputs: {
      Ip: { Value: { 'Fn::GetAtt': ['Host', 'PublicIp'] } },
      GroupVpc: { Value: { 'Fn::GetAtt': ['Group', 'VpcId'] } },
      Name: { Value: 'fixed' },
      Queue: { Value: { Ref: 'Later' } },
    },
  },
  'test',
);

async function prepared() {
  return prepareTemplate(template, {
    pseudo: { accountId: '123456789012', region: 'us-east-1', stackName: 'Web' },
    parameters: {},
    ssmParameter: async () => '',
  });
}

function live(answers: Record<string, LiveAttributeAnswer>): LiveAttributes {
  return new LiveAttributes({
    state: { record: (id) => records[id] },
    region: 'us-east-1',
    wait: false,
    reader: { read: async (request) => answers[`${request.logicalId}.${request.attribute}`]! },
  });
}

const resolver = (pending: boolean): ExternalResolver => ({
  ref: (id) => records[id]?.physicalId ?? (pending ? pendingValue(id) : `${id}-id`),
  getAtt: (id, attribute) => records[id]?.attributes[attribute],
  importValue: () => undefined,
});

describe('evaluateOutputs with live attributes', () => {
  it('keeps a refused output out of what is shown, with its earlier value stored', async () => {
    const outputs = await evaluateOutputs(await prepared(), resolver(false), {
      live: live({
        'Host.PublicIp': { kind: 'unassigned', observed: 'pending', pending: true },
        'Group.VpcId': { kind: 'value', value: 'vpc-default' },
      }),
      previous: { Ip: { value: '54.0.0.1' } },
    });
    expect(outputs.failed.map((failed) => failed.name)).toEqual(['Ip']);
    expect(outputs.failed[0]!.hint).toContain('--no-wait');
    expect(outputs.resolved).toEqual({
      GroupVpc: { value: 'vpc-default' },
      Name: { value: 'fixed' },
      Queue: { value: 'Later-id' },
    });
    expect(outputs.stored).toEqual({ ...outputs.resolved, Ip: { value: '54.0.0.1' } });
  });
});

describe('outputChanges (cdkd diff)', () => {
  it("shows the one-time '' → vpc delta, an output not known yet as known after deploy, removed ones", async () => {
    const { changes, failed } = await outputChanges(
      await prepared(),
      resolver(true),
      live({
        'Host.PublicIp': { kind: 'value', value: '54.0.0.1' },
        'Group.VpcId': { kind: 'value', value: 'vpc-default' },
      }),
      { Ip: { value: '54.0.0.1' }, GroupVpc: { value: '' }, Name: { value: 'fixed' }, Old: { value: 'o' } },
    );
    expect(failed).toEqual([]);
    expect(changes).toEqual([
      { name: 'GroupVpc', before: '', after: 'vpc-default' },
      { name: 'Queue', knownAfterDeploy: true },
      { name: 'Old', before: 'o' },
    ]);
  });

  it('puts an output whose read is refused in the failed keys', async () => {
    const { changes, failed } = await outputChanges(
      await prepared(),
      resolver(true),
      live({
        'Host.PublicIp': {
          kind: 'failed',
          operation: 'ec2:DescribeInstances',
          errorClass: 'UnauthorizedOperation',
          cause: new Error('no'),
        },
        'Group.VpcId': { kind: 'value', value: 'vpc-default' },
      }),
      { GroupVpc: { value: 'vpc-default' }, Name: { value: 'fixed' } },
    );
    expect(failed.map((output) => output.name)).toEqual(['Ip']);
    expect(failed[0]!.message).toContain('UnauthorizedOperation');
    expect(changes).toEqual([{ name: 'Queue', knownAfterDeploy: true }]);
  });
});

describe('declaredExportValues: the changed-export guard sees values read live', () => {
  const exporting = validateTemplate(
    {
      Resources: { Network: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: '10.0.0.0/16' } } },
      Outputs: {
        Sg: {
          Value: { 'Fn::GetAtt': ['Network', 'DefaultSecurityGroup'] },
          Export: { Name: 'net-default-sg' },
        },
      },
    },
    'test',
  );
  const exportingTemplate = () =>
    prepareTemplate(exporting, {
      pseudo: { accountId: '123456789012', region: 'us-east-1', stackName: 'Net' },
      parameters: {},
      ssmParameter: async () => '',
    });
  // The stack exported sg-old; App imports it.
  const index = ExportIndex.from([
    { stackName: 'Net', outputs: { Sg: { value: 'sg-old', exportName: 'net-default-sg' } }, imports: [] },
    { stackName: 'App', outputs: {}, imports: ['net-default-sg'] },
  ]);
  const imported = (name: string) => index.isImportedElsewhere(name, 'Net');
  const strict: ExternalResolver = {
    ...resolver(false),
    getAtt: (id, attribute) => {
      const value = records[id]?.attributes[attribute];
      if (value === undefined) throw new Error(`${id} has no ${attribute} recorded`);
      return value;
    },
  };

  it('an exported attribute the record lacks is read live, and a changed value is refused while imported', async () => {
    const values = await declaredExportValues(
      await exportingTemplate(),
      strict,
      imported,
      live({ 'Network.DefaultSecurityGroup': { kind: 'value', value: 'sg-new' } }),
    );
    expect(values).toEqual(new Map([['net-default-sg', 'sg-new']]));
    expect(() => refuseChangedExportsInUse('Net', index, values)).toThrow(
      'Cannot update export net-default-sg as it is in use by App',
    );
  });

  it('an unchanged live value passes, and one whose read is refused is left to the outputs', async () => {
    const same = await declaredExportValues(
      await exportingTemplate(),
      strict,
      imported,
      live({ 'Network.DefaultSecurityGroup': { kind: 'value', value: 'sg-old' } }),
    );
    expect(() => refuseChangedExportsInUse('Net', index, same)).not.toThrow();
    const unread = await declaredExportValues(
      await exportingTemplate(),
      strict,
      imported,
      live({ 'Network.DefaultSecurityGroup': { kind: 'unassigned', observed: 'pending', pending: true } }),
    );
    expect(unread).toEqual(new Map());
  });

  it('reads nothing for an export no other stack imports', async () => {
    const reads: string[] = [];
    const counting = new LiveAttributes({
      state: { record: (id) => records[id] },
      region: 'us-east-1',
      wait: true,
      reader: {
        read: async (request) => {
          reads.push(request.attribute);
          return { kind: 'value', value: 'sg-new' };
        },
      },
    });
    expect(await declaredExportValues(await exportingTemplate(), strict, () => false, counting)).toEqual(
      new Map(),
    );
    expect(reads).toEqual([]);
  });
});
