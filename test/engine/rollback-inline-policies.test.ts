import { GetRolePolicyCommand, IAMClient, ListRolePoliciesCommand } from '@aws-sdk/client-iam';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import type { DeployEvent } from '../../src/engine/events.js';
import { readEvents } from '../../src/state/event-log.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { defaultRegistry } from '../../src/toolkit/provider-wiring.js';
import { useSandbox } from '../helpers/sandbox.js';

/**
 * Spec 000, "IAM inline policy names moved between resources", with the real IAM
 * provider on the sandbox: a rollback that removes a name another record still
 * holds on the role puts that record's document back at the end.
 */
const sandbox = useSandbox();
const clients = new AwsClients();
let backend: StateBackend;
let events: DeployEvent[] = [];
let counter = 0;

beforeAll(async () => {
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'inline-policies' }));
  backend = await openStateBackend(clients, 'inline-policies', 'cdkd');
});

const document = (action: string) => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }],
});
const role = {
  Type: 'AWS::IAM::Role',
  Properties: {
    AssumeRolePolicyDocument: {
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
      ],
    },
  },
};
const policy = (name: string, action: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::IAM::Policy',
  ...extra,
  Properties: { PolicyName: name, PolicyDocument: document(action), Roles: [{ Ref: 'Role' }] },
});

async function deploy(stackName: string, resources: Record<string, unknown>) {
  events = [];
  const engine = await createEngine({
    backend,
    clients,
    registry: defaultRegistry(),
    events: (event) => events.push(event),
    regions: ['us-east-1'],
  });
  return engine.deploy(
    {
      stateName: stackName,
      stackName,
      region: 'us-east-1',
      accountId: '000000000000',
      template: { Resources: resources },
    },
    { concurrency: 4 },
  );
}

async function failQueueCreates() {
  const response = await fetch(`${sandbox.current.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      service: 'sqs',
      operation: 'CreateQueue',
      errorCode: 'InvalidAttributeValue',
      httpStatus: 400,
      message: 'injected',
    }),
  });
  expect(response.status).toBe(201);
}

async function inlinePolicies(roleName: string): Promise<Record<string, unknown>> {
  const iam = await clients.client(IAMClient);
  const names = (await iam.send(new ListRolePoliciesCommand({ RoleName: roleName }))).PolicyNames ?? [];
  const found: Record<string, unknown> = {};
  for (const PolicyName of names) {
    const got = await iam.send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName }));
    found[PolicyName] = JSON.parse(decodeURIComponent(got.PolicyDocument!));
  }
  return found;
}

async function roleName(stackName: string): Promise<string> {
  const state = await backend.store.read({ stackName, region: 'us-east-1' });
  return state!.document.resources.Role!.physicalId;
}

describe('IAM inline policy names moved between resources', () => {
  it('a name a new policy took and a renamed policy gave up goes back to the renamed policy’s document', async () => {
    counter += 1;
    const stack = `InlineMoved${counter}`;
    await deploy(stack, { Role: role, A: policy('shared', 's3:GetObject') });
    const name = await roleName(stack);
    expect(await inlinePolicies(name)).toEqual({ shared: document('s3:GetObject') });

    // B takes "shared" (over A's document), then A moves to "renamed" and deletes "shared":
    // reverting A puts "shared" back, deleting B removes it again, the put-back restores A's.
    await failQueueCreates();
    await expect(
      deploy(stack, {
        Role: role,
        B: policy('shared', 'sqs:SendMessage'),
        A: policy('renamed', 's3:GetObject', { DependsOn: 'B' }),
        Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
      }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    expect(await inlinePolicies(name)).toEqual({ shared: document('s3:GetObject') });
    const putBack = events.filter(
      (event) => event.kind === 'rollback' && event.message.includes('put back the inline policy'),
    );
    expect(putBack).toEqual([
      expect.objectContaining({
        logicalId: 'A',
        message: 'Rollback: put back the inline policy A records on its role',
      }),
    ]);
    const recorded = await readEvents(backend.objects, backend.store.prefix, {
      stackName: stack,
      region: 'us-east-1',
    });
    expect(recorded).toContainEqual(
      expect.objectContaining({
        status: 'ROLLBACK_RESOURCE_SUCCEEDED',
        logicalId: 'A',
        resourceType: 'AWS::IAM::Policy',
      }),
    );
  });

  it('a plain rename is reverted without any put-back', async () => {
    counter += 1;
    const stack = `InlineMoved${counter}`;
    await deploy(stack, { Role: role, A: policy('first', 's3:GetObject') });
    const name = await roleName(stack);

    await failQueueCreates();
    await expect(
      deploy(stack, {
        Role: role,
        A: policy('second', 's3:GetObject'),
        Queue: { Type: 'AWS::SQS::Queue', DependsOn: 'A' },
      }),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });

    expect(await inlinePolicies(name)).toEqual({ first: document('s3:GetObject') });
    expect(events.some((event) => event.kind === 'rollback' && event.message.includes('put back'))).toBe(
      false,
    );
  });
});
