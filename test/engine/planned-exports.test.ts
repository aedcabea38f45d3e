import { describe, expect, it } from 'vitest';
import { ExportIndex } from '../../src/engine/export-index.js';
import {
  noteExportsKnownAfterDeploy,
  plannedExportValues,
} from '../../src/engine/planning/planned-exports.js';
import { holdsPendingValue, pendingValue } from '../../src/engine/planning/state-resolver.js';
import type { DesiredResource, Plan, PlannedOperation } from '../../src/plan/index.js';
import { prepareTemplate, validateTemplate, type ExternalResolver } from '../../src/template/index.js';
import { definesNoResources } from '../../src/toolkit/stacks/empty-stacks.js';

describe('plannedExportValues: what a dry-run stack leaves for the later stacks of its run', () => {
  it('evaluates each export as the plan sees it: known values as they are, the rest as placeholders', async () => {
    const template = validateTemplate(
      {
        Resources: { Data: { Type: 'AWS::S3::Bucket' }, Made: { Type: 'AWS::SQS::Queue' } },
        Outputs: {
          Name: { Value: { Ref: 'Data' }, Export: { Name: { 'Fn::Sub': '${AWS::StackName}:name' } } },
          Url: { Value: { Ref: 'Made' }, Export: { Name: 'made-url' } },
          First: {
            Value: { 'Fn::Select': [0, { 'Fn::Split': [',', { Ref: 'Data' }] }] },
            Export: { Name: 'first' },
          },
          Fixed: { Value: 'constant', Export: { Name: 'fixed' } },
          Private: { Value: 'not exported' },
        },
      },
      'test',
    );
    const prepared = await prepareTemplate(template, {
      pseudo: { accountId: '123456789012', region: 'us-east-1', stackName: 'Storage' },
      parameters: {},
      ssmParameter: async () => '',
    });
    // Made is recorded; Data is not made yet.
    const resolver: ExternalResolver = {
      ref: (id) => (id === 'Made' ? 'https://q/123456789012/made' : pendingValue(id)),
      getAtt: (id, attribute) => pendingValue(id, attribute),
      importValue: () => undefined,
    };
    const values = plannedExportValues(prepared, resolver);
    expect([...values.keys()]).toEqual(['Storage:name', 'made-url', 'first', 'fixed']);
    expect(holdsPendingValue(values.get('Storage:name'))).toBe(true);
    expect(values.get('made-url')).toBe('https://q/123456789012/made');
    expect(holdsPendingValue(values.get('first'))).toBe(true);
    expect(values.get('fixed')).toBe('constant');
  });
});

describe('ExportIndex.planned', () => {
  it('adds the exports no deployed stack declares, and leaves a deployed one as it is', () => {
    const index = ExportIndex.from([
      { stackName: 'Storage', outputs: { Old: { value: 'deployed', exportName: 'kept' } }, imports: [] },
    ]);
    index.planned(
      'Storage',
      new Map<string, unknown>([
        ['kept', pendingValue('Data')],
        ['fresh', pendingValue('Data')],
      ]),
    );
    expect(index.value('kept')).toBe('deployed');
    expect(holdsPendingValue(index.value('fresh'))).toBe(true);
    expect(index.exporterOf('fresh')).toBe('Storage');
  });
});

describe('noteExportsKnownAfterDeploy', () => {
  const op = (logicalId: string): PlannedOperation =>
    ({ logicalId, kind: 'create', type: 'AWS::SSM::Parameter', notes: [] }) as unknown as PlannedOperation;

  it('notes the property of each resource that reads an export known only after deploy', () => {
    const index = ExportIndex.from([
      { stackName: 'Storage', outputs: { Known: { value: 'v', exportName: 'known' } }, imports: [] },
    ]);
    index.planned('Storage', new Map([['later', pendingValue('Data')]]));
    const plan: Plan = { operations: [op('Reader'), op('Other')] };
    const desired = [
      {
        logicalId: 'Reader',
        reads: [
          { target: 'later', property: 'Value', via: 'import' },
          { target: 'later', property: 'Value', via: 'import' },
          { target: 'known', property: 'Description', via: 'import' },
        ],
      },
      { logicalId: 'Other', reads: [{ target: 'later', property: 'Value', via: 'ref' }] },
    ] as unknown as DesiredResource[];
    noteExportsKnownAfterDeploy(plan, desired, index);
    expect(plan.operations[0]!.notes).toEqual([
      'Value: (known after deploy), reads export later, which Storage creates when it deploys before this stack',
    ]);
    expect(plan.operations[1]!.notes).toEqual([]);
  });
});

describe('definesNoResources: a template CloudFormation would refuse for having no resources', () => {
  it.each([
    [{}, true],
    [{ Resources: {} }, true],
    [{ Parameters: { BootstrapVersion: { Type: 'String' } }, Resources: {} }, true],
    [{ Resources: { Q: { Type: 'AWS::SQS::Queue' } } }, false],
    [{ Resources: { CDKMetadata: { Type: 'AWS::CDK::Metadata' } } }, false],
    [{ Resources: 'x' }, false],
    [[], false],
  ])('%j -> %s', (template, empty) => {
    expect(definesNoResources(template)).toBe(empty);
  });
});
