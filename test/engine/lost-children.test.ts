import { describe, expect, it } from 'vitest';
import { forgetParent } from '../../src/engine/execute/lost-children.js';
import { StackState } from '../../src/stack-state/stack-state.js';
import { propertyHash } from '../../src/plan/index.js';
import { emptyStateDocument, type ResourceRecord } from '../../src/state/documents/state-document.js';
import type { StateStore } from '../../src/state/state-store.js';
import { NoEchoData } from '../../src/stack-state/no-echo-data.js';

function record(type: string, physicalId: string, properties: Record<string, unknown>): ResourceRecord {
  return {
    type,
    physicalId,
    properties,
    attributes: {},
    propertyHash: propertyHash(properties),
    provisionedBy: 'sdk',
    dependencies: [],
  } as ResourceRecord;
}

/** A stack state whose saves are counted, not sent. */
async function stateWith(resources: Record<string, ResourceRecord>) {
  const saves: string[] = [];
  const store = {
    saveText: async (_stack: unknown, text: string) => {
      saves.push(text);
      return `etag-${saves.length}`;
    },
  } as unknown as StateStore;
  const document = { ...emptyStateDocument('Stack', 'us-east-1'), resources };
  return {
    state: new StackState(
      store,
      { stackName: 'Stack', region: 'us-east-1' },
      document,
      'etag-0',
      await NoEchoData.open(store, { stackName: 'Stack', region: 'us-east-1' }, document),
    ),
    saves,
  };
}

describe('the records a deleted IAM role takes with it (spec 002)', () => {
  const role = record('AWS::IAM::Role', 'app-role', { RoleName: 'app-role' });

  it('drops its inline policy, trims what else names it, keeps the rest, in one save with the role forgotten', async () => {
    const { state, saves } = await stateWith({
      Role: role,
      Inline: record('AWS::IAM::RolePolicy', 'inline', { RoleName: 'app-role', PolicyName: 'p' }),
      Shared: record('AWS::IAM::Policy', 'shared', { PolicyName: 's', Roles: ['app-role', 'other-role'] }),
      Managed: record('AWS::IAM::ManagedPolicy', 'arn:managed', { Roles: ['app-role'] }),
      Profile: record('AWS::IAM::InstanceProfile', 'profile', { Roles: ['app-role'] }),
      Unrelated: record('AWS::SSM::Parameter', '/p', { Value: 'app-role' }),
    });
    const lost = await forgetParent(state, 'Role', role);

    expect([...lost.keys()]).toEqual(['Inline']);
    expect(lost.get('Inline')).toMatchObject({ parent: 'Role', record: { physicalId: 'inline' } });
    const resources = state.document.resources;
    expect(Object.keys(resources).sort()).toEqual(['Managed', 'Profile', 'Shared', 'Unrelated']);
    expect(resources.Shared!.properties.Roles).toEqual(['other-role']);
    // Never dropped, kept minus the principal, its hash recomputed so the engine sees the difference.
    expect(resources.Managed!.properties.Roles).toEqual([]);
    expect(resources.Managed!.propertyHash).toBe(propertyHash({ Roles: [] }));
    expect(resources.Profile!.properties.Roles).toEqual([]);
    expect(resources.Unrelated!.properties).toEqual({ Value: 'app-role' });
    await state.flush();
    expect(saves).toHaveLength(1);
  });

  it('a function child named by the parent ARN goes too', async () => {
    const fn = {
      ...record('AWS::Lambda::Function', 'fn', {}),
      attributes: { Arn: 'arn:aws:lambda:us-east-1:0:function:fn' },
    };
    const { state } = await stateWith({
      Fn: fn,
      Perm: record('AWS::Lambda::Permission', 'perm', {
        FunctionName: 'arn:aws:lambda:us-east-1:0:function:fn',
      }),
      Elsewhere: record('AWS::Lambda::Permission', 'perm2', { FunctionName: 'other-fn' }),
    });
    const lost = await forgetParent(state, 'Fn', fn);
    expect([...lost.keys()]).toEqual(['Perm']);
    expect(Object.keys(state.document.resources)).toEqual(['Elsewhere']);
  });
});
