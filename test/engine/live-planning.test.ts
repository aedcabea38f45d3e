import { describe, expect, it } from 'vitest';
import { desiredResources, UNRESOLVED_PROPERTIES } from '../../src/engine/planning/desired-resources.js';
import { LiveAttributes } from '../../src/engine/planning/live-attributes.js';
import { stateResolver } from '../../src/engine/planning/state-resolver.js';
import { ExportIndex } from '../../src/engine/export-index.js';
import type { LiveAttributeAnswer } from '../../src/providers/live-attributes/index.js';
import type { ResourceRecord } from '../../src/state/documents/state-document.js';
import { prepareTemplate, validateTemplate } from '../../src/template/index.js';
import type { StackState } from '../../src/stack-state/stack-state.js';

// A resource reading an attribute its target's record lacks plans with the value read live.
const host: ResourceRecord = {
  type: 'AWS::EC2::Instance',
  physicalId: 'i-0abc',
  properties: {},
  attributes: {},
  provisionedBy: 'cc-api',
  dependencies: [],
};
const state = {
  record: (id: string) => (id === 'Host' ? host : undefined),
} as unknown as StackState;

async function plannedIp(answer: LiveAttributeAnswer): Promise<Record<string, unknown>> {
  const prepared = await prepareTemplate(
    validateTemplate(
      {
        Resources: {
          Host: { Type: 'AWS::EC2::Instance', Properties: { ImageId: 'ami-1' } },
          Ip: {
            Type: 'AWS::SSM::Parameter',
            Properties: { Type: 'String', Value: { 'Fn::GetAtt': ['Host', 'PrivateIp'] } },
          },
        },
      },
      'test',
    ),
    {
      pseudo: { accountId: '123456789012', region: 'us-east-1', stackName: 'Web' },
      parameters: {},
      ssmParameter: async () => '',
    },
  );
  const live = new LiveAttributes({
    state,
    region: 'us-east-1',
    wait: true,
    reader: { read: async () => answer },
  });
  const resolver = stateResolver(state, ExportIndex.from([]), { pending: true });
  const desired = await desiredResources(prepared, resolver, live);
  return desired.find((resource) => resource.logicalId === 'Ip')!.properties;
}

describe('planning with live attributes', () => {
  it('plans a reader with the value read live', async () => {
    expect(await plannedIp({ kind: 'value', value: '10.0.0.9' })).toEqual({
      Type: 'String',
      Value: '10.0.0.9',
    });
  });

  it('leaves a reader unresolved when the read is refused; the deploy refuses it in its turn', async () => {
    expect(await plannedIp({ kind: 'unassigned', observed: 'pending', pending: true })).toEqual(
      UNRESOLVED_PROPERTIES,
    );
  });
});
