import { GetRolePolicyCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { Clock } from '../../src/providers/clock.js';
import { withRetry } from '../../src/providers/retry.js';
import { defaultRegistry } from '../../src/toolkit/session/provider-wiring.js';
import { failureOf } from '../helpers/error-chain.js';
import { liveResources } from '../helpers/inventory.js';
import { iamRole, REGION, stackIdentity, useSandboxEngine } from '../helpers/sandbox-engine.js';
import { eventsTo } from '../helpers/recording-io-host.js';

// Spec 003, "Ambiguous creates": a token-less create whose answer is lost after it took effect.
const sandbox = useSandboxEngine('ambiguous-state');

/** The retry schedules with no real waiting. */
const clock: Clock = { now: () => Date.now(), sleep: async () => {} };

function engineWithRetry(): Promise<Engine> {
  return createEngine({
    backend: sandbox.backend,
    clients: sandbox.clients,
    registry: defaultRegistry(),
    io: eventsTo(() => {}),
    command: 'deploy',
    retry: (label, call) => withRetry(() => call(), { label, clock }),
    regions: [REGION],
  });
}

async function deploy(stackName: string, resources: Record<string, unknown>, rollback = true) {
  return (await engineWithRetry()).deploy(
    { ...stackIdentity(stackName), template: { Resources: resources } },
    { concurrency: 4, rollback },
  );
}

async function callCount(key: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/_sandbox/calls`);
  const snapshot = (await response.json()) as { calls: Record<string, { count: number }> };
  return snapshot.calls[key]?.count ?? 0;
}

async function liveOf(type: string): Promise<string[]> {
  return (await liveResources(sandbox.url)).filter((r) => r.type === type).map((r) => r.id);
}

async function recordOf(stackName: string, logicalId: string) {
  const state = await sandbox.backend.store.read({ stackName, region: REGION });
  return state?.document.resources[logicalId];
}

beforeEach(async () => {
  await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
  await fetch(`${sandbox.url}/_sandbox/calls`, { method: 'DELETE' });
});

const INLINE = {
  PolicyName: 'inline',
  PolicyDocument: {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
  },
};

describe('an unnamed create whose answer is lost after it took effect', () => {
  it('IAM role (HTTP 500): the retry finds the role the lost attempt made, sends no second CreateRole and finishes it', async () => {
    await sandbox.addFault({
      service: 'iam',
      operation: 'CreateRole',
      errorCode: 'ServiceFailure',
      httpStatus: 500,
      afterApply: true,
    });
    const result = await deploy('AmbRole', { Role: iamRole({ Policies: [INLINE] }) });
    expect(result.unaddressed).toEqual([]);

    expect(await callCount('iam:CreateRole')).toBe(1);
    const roles = await liveOf('AWS::IAM::Role');
    expect(roles).toHaveLength(1);
    const record = await recordOf('AmbRole', 'Role');
    expect(record?.physicalId).toBe(roles[0]);
    expect(record?.attributes.Arn).toContain(`role/${roles[0]}`);
    // The lost attempt never reached the inline policy; completing the create put it.
    const iam = await sandbox.clients.client(IAMClient, REGION);
    const policy = await iam.send(new GetRolePolicyCommand({ RoleName: roles[0], PolicyName: 'inline' }));
    expect(policy.PolicyName).toBe('inline');
  });

  it('KMS key (HTTP 500): no second key; the one made carries the create token state records', async () => {
    await sandbox.addFault({
      service: 'kms',
      operation: 'CreateKey',
      errorCode: 'KMSInternalException',
      httpStatus: 500,
      afterApply: true,
    });
    const before = await liveOf('AWS::KMS::Key');
    const result = await deploy('AmbKey', { Key: { Type: 'AWS::KMS::Key', Properties: {} } });
    expect(result.unaddressed).toEqual([]);

    expect(await callCount('kms:CreateKey')).toBe(1);
    const made = (await liveOf('AWS::KMS::Key')).filter((id) => !before.includes(id));
    expect(made).toHaveLength(1);
    expect((await recordOf('AmbKey', 'Key'))?.physicalId).toBe(made[0]);
  });

  it('SSM parameter (dropped connection): one parameter, the one state records', async () => {
    await sandbox.addFault({
      service: 'ssm',
      operation: 'PutParameter',
      dropConnection: true,
      afterApply: true,
    });
    const result = await deploy('AmbParam', {
      Param: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'v1' } },
    });
    expect(result.unaddressed).toEqual([]);

    // The create, then the update that brings the found parameter to the request (one name: no copy).
    expect(await callCount('ssm:PutParameter')).toBe(2);
    const parameters = (await liveOf('AWS::SSM::Parameter')).filter((id) => id.includes('AmbParam'));
    expect(parameters).toHaveLength(1);
    expect((await recordOf('AmbParam', 'Param'))?.physicalId).toBe(parameters[0]);
  });
});

describe('a create whose every answer is lost', () => {
  it('once the retry gives up, the role the last attempt made is recorded made, and the rollback deletes it', async () => {
    // Eight dropped before IAM saw them, then the ninth (the last the schedule allows) lost after.
    await sandbox.addFault({
      service: 'iam',
      operation: 'CreateRole',
      dropConnection: true,
      every: true,
      count: 8,
    });
    await sandbox.addFault({
      service: 'iam',
      operation: 'CreateRole',
      errorCode: 'ServiceFailure',
      httpStatus: 500,
      nth: 9,
      afterApply: true,
    });
    const roles = await liveOf('AWS::IAM::Role');
    const failure = await deploy('AmbExhausted', { Role: iamRole() }, false).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failureOf(failure).codes).toContain('RESOURCE_FAILED');
    expect(await callCount('iam:CreateRole')).toBe(9);
    const made = (await liveOf('AWS::IAM::Role')).filter((id) => !roles.includes(id));
    expect(made).toHaveLength(1);
    const journal = await sandbox.backend.journals.read({ stackName: 'AmbExhausted', region: REGION });
    const create = journal!.document.segments.flatMap((segment) => segment.operations)[0];
    expect(create).toMatchObject({ status: 'failed', made: { physicalId: made[0] } });

    const rolledBack = await sandbox.rollback('AmbExhausted');
    expect(rolledBack.exitCode).toBe(0);
    expect((await liveOf('AWS::IAM::Role')).filter((id) => !roles.includes(id))).toEqual([]);
  });
});

describe('a named create whose answer is lost after it took effect', () => {
  it('with nothing to prove it its own: fails with AMBIGUOUS_CREATE_NAME_TAKEN and deletes nothing', async () => {
    // CreateGroup carries no token, and a group takes no tags: its name proves nothing.
    await sandbox.addFault({
      service: 'iam',
      operation: 'CreateGroup',
      errorCode: 'InternalServerError',
      httpStatus: 500,
      afterApply: true,
    });
    const failure = await deploy('AmbNamed', {
      Group: { Type: 'AWS::IAM::Group', Properties: { GroupName: 'amb-named' } },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const { codes, hint } = failureOf(failure);
    expect(codes).toContain('AMBIGUOUS_CREATE_NAME_TAKEN');
    expect(hint).toContain('cdkd import');
    // The deploy's own hint replaces a resource's: what to do is in the message the user sees.
    expect((failure as Error).message).toMatch(/cannot prove it.*`cdkd import` it/);

    // The automatic rollback could not prove the group is this create's: it is still there.
    expect(await liveOf('AWS::IAM::Group')).toContain('amb-named');
    expect(await recordOf('AmbNamed', 'Group')).toBeUndefined();
    const journal = await sandbox.backend.journals.read({ stackName: 'AmbNamed', region: REGION });
    const operations = journal?.document.segments.flatMap((segment) => segment.operations) ?? [];
    const create = operations.find((op) => op.logicalId === 'Group' && op.action === 'create');
    expect(create).toMatchObject({ status: 'failed' });
    expect(create).not.toHaveProperty('made');
  });

  it('that wrote its token tag in the create call: the retry proves the parameter its own and completes', async () => {
    await sandbox.addFault({
      service: 'ssm',
      operation: 'PutParameter',
      errorCode: 'InternalServerError',
      httpStatus: 500,
      afterApply: true,
    });
    await deploy('AmbTagged', {
      Param: {
        Type: 'AWS::SSM::Parameter',
        Properties: { Name: 'amb-tagged', Type: 'String', Value: 'mine' },
      },
    });
    expect(await recordOf('AmbTagged', 'Param')).toMatchObject({ physicalId: 'amb-tagged' });
    const ssm = await sandbox.clients.ssm(REGION);
    expect((await ssm.send(new GetParameterCommand({ Name: 'amb-tagged' }))).Parameter?.Value).toBe('mine');
  });
});
