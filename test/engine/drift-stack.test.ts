import { DeleteRolePolicyCommand, GetRolePolicyCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetFunctionCommand, LambdaClient, UpdateFunctionConfigurationCommand } from '@aws-sdk/client-lambda';
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

describe('drift of a function, whose Code no read returns (write-only)', () => {
  const code = { ZipFile: 'exports.handler = async () => 1;' };
  const template = {
    Role: iamRole(),
    Fn: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Code: code,
        Handler: 'index.handler',
        Runtime: 'nodejs20.x',
        Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
        Timeout: 3,
      },
    },
  };
  const calls = async (): Promise<Record<string, unknown>> =>
    ((await (await fetch(`${h.url}/_sandbox/calls`)).json()) as { calls: Record<string, unknown> }).calls;

  it('compares all but Code; a revert sends the configuration back, not the code; an accept keeps Code', async () => {
    await h.deploy('Coded', template);
    const engine = await h.engine();
    const detect = () => engine.drift(stackIdentity('Coded'), { mode: 'detect', concurrency: 2 });
    expect((await detect()).drifted).toEqual([]);
    const name = (await h.backend.store.read({ stackName: 'Coded', region: REGION }))!.document.resources.Fn!
      .physicalId;
    const lambda = await h.clients.client(LambdaClient, REGION);
    const setTimeout = (Timeout: number) =>
      lambda.send(new UpdateFunctionConfigurationCommand({ FunctionName: name, Timeout }));

    await setTimeout(9);
    expect((await detect()).drifted.map((d) => [d.logicalId, d.properties.map((p) => p.property)])).toEqual([
      ['Fn', ['Timeout']],
    ]);
    await fetch(`${h.url}/_sandbox/calls`, { method: 'DELETE' });
    await engine.drift(stackIdentity('Coded'), { mode: 'revert', concurrency: 2 });
    const sent = await calls();
    expect(sent).toHaveProperty(['lambda:UpdateFunctionConfiguration']);
    expect(sent).not.toHaveProperty(['lambda:UpdateFunctionCode']);
    expect((await lambda.send(new GetFunctionCommand({ FunctionName: name }))).Configuration?.Timeout).toBe(
      3,
    );

    await setTimeout(12);
    await engine.drift(stackIdentity('Coded'), { mode: 'accept', concurrency: 2 });
    const accepted = (await h.backend.store.read({ stackName: 'Coded', region: REGION }))!.document.resources
      .Fn!.properties;
    expect(accepted).toMatchObject({ Code: code, Timeout: 12 });
    expect((await detect()).drifted).toEqual([]);
  });
});

describe('drift of a function Cloud Control made (RuntimeManagementConfig has no SDK route)', () => {
  const traced = {
    Role: iamRole(),
    Fn: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Code: { ZipFile: 'exports.handler = async () => 1;' },
        Handler: 'index.handler',
        Runtime: 'nodejs20.x',
        Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
        RuntimeManagementConfig: { UpdateRuntimeOn: 'Auto' },
      },
    },
  };

  it("passes over Code by the registry's writeOnlyProperties, or by the SDK provider's when DescribeType is denied", async () => {
    await h.deploy('Traced', traced);
    const state = await h.backend.store.read({ stackName: 'Traced', region: REGION });
    expect(state!.document.resources.Fn!.provisionedBy).toBe('cc-api');
    const detect = async () =>
      (await h.engine()).drift(stackIdentity('Traced'), { mode: 'detect', concurrency: 2 });
    expect((await detect()).drifted).toEqual([]);

    await h.addFault({
      service: 'cloudformation',
      operation: 'DescribeType',
      errorCode: 'AccessDenied',
      httpStatus: 403,
      message: 'User is not authorized to perform: cloudformation:DescribeType',
      every: true,
    });
    try {
      expect((await detect()).drifted).toEqual([]);
      expect(h.events.some((event) => event.kind === 'warning')).toBe(true);
    } finally {
      await fetch(`${h.url}/_sandbox/faults`, { method: 'DELETE' });
    }
  });
});
