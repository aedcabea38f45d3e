import { DeleteRolePolicyCommand, GetRolePolicyCommand, IAMClient } from '@aws-sdk/client-iam';
import { describe, expect, it } from 'vitest';
import { REGION, iamRole, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';

// The rollback's message for an inline policy it could not put back sends users to
// `cdkd drift --revert`: that command puts the recorded policy back.
const h = useSandboxEngine('drift-engine-state');

const policy = {
  PolicyName: 'reads',
  PolicyDocument: {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
  },
};

describe('drift --revert on an IAM inline policy removed out of band', () => {
  it('detects the missing policy and puts it back', async () => {
    await h.deploy('Inline', { Role: iamRole({ Policies: [policy] }) });
    const role = (await h.backend.store.read({ stackName: 'Inline', region: REGION }))!.document.resources
      .Role!;
    const iam = await h.clients.client(IAMClient, REGION);
    await iam.send(new DeleteRolePolicyCommand({ RoleName: role.physicalId, PolicyName: 'reads' }));

    const engine = await h.engine();
    const seen = await engine.drift(stackIdentity('Inline'), { mode: 'detect', concurrency: 2 });
    expect(seen.drifted.map((d) => [d.logicalId, d.properties.map((p) => p.property)])).toEqual([
      ['Role', ['Policies']],
    ]);

    await engine.drift(stackIdentity('Inline'), { mode: 'revert', concurrency: 2 });
    const back = await iam.send(new GetRolePolicyCommand({ RoleName: role.physicalId, PolicyName: 'reads' }));
    expect(back.PolicyName).toBe('reads');
    expect((await engine.drift(stackIdentity('Inline'), { mode: 'detect', concurrency: 2 })).drifted).toEqual(
      [],
    );
  });
});

describe('drift of a stack with a nested stack', () => {
  it("passes over the nested stack's record, whose resources its own state holds", async () => {
    const engine = await h.engine();
    await engine.deploy(
      {
        ...stackIdentity('Parent'),
        template: {
          Resources: {
            Q: { Type: 'AWS::SQS::Queue' },
            Child: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'x' } },
          },
        },
        nested: new Map([
          ['Child', { template: { Resources: { Inner: { Type: 'AWS::SQS::Queue' } } }, nested: new Map() }],
        ]),
      },
      { concurrency: 2 },
    );
    expect((await engine.drift(stackIdentity('Parent'), { mode: 'detect', concurrency: 2 })).drifted).toEqual(
      [],
    );
    const child = { ...stackIdentity('Parent'), stateName: 'Parent/Child', stackName: 'Parent-Child' };
    expect(await engine.drift(child, { mode: 'detect', concurrency: 2 })).toEqual({
      found: true,
      drifted: [],
    });
  });
});
