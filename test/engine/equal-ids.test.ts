import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { createEngine } from '../../src/engine/engine.js';
import type { DeployOptions, StackRequest } from '../../src/engine/stack-request.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { failureOf } from '../helpers/error-chain.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FakeCloud } from './fake-provider.js';
import { eventsTo } from '../helpers/recording-io-host.js';

/**
 * Spec 002 "Equal physical ids across a type change", through the engine: a create that
 * hands back the old resource's id is the old resource only between two custom types.
 */
useSandbox();
let backend: StateBackend;
let cloud: FakeCloud;
let stackCounter = 0;

/** Handles custom types too; a create whose properties name `HandlerId` returns that id, as a handler may. */
class HandlerCloud extends FakeCloud {
  constructor() {
    super();
    const create = this.provider.create.bind(this.provider);
    this.provider.create = async (request, context) => {
      const id = request.properties.HandlerId;
      if (typeof id !== 'string') return create(request, context);
      this.live.set(id, { type: request.type, properties: request.properties });
      this.calls.push({ action: 'create', logicalId: request.logicalId, type: request.type, physicalId: id });
      return { physicalId: id, attributes: {} };
    };
  }

  override canHandle(): boolean {
    return true;
  }
}

beforeAll(async () => {
  const clients = new AwsClients();
  await (await clients.s3()).send(new CreateBucketCommand({ Bucket: 'equal-ids' }));
  backend = await openStateBackend(clients, 'equal-ids', 'cdkd');
});

beforeEach(() => {
  cloud = new HandlerCloud();
});

function deploy(name: string, type: string, options: Partial<DeployOptions> = {}) {
  const request: StackRequest = {
    stateName: name,
    stackName: name,
    region: 'us-east-1',
    accountId: '000000000000',
    template: {
      Resources: { R: { Type: type, Properties: { ServiceToken: 'arn:fn', HandlerId: 'same-id' } } },
    },
  };
  return createEngine({
    backend,
    clients: new AwsClients(),
    registry: cloud,
    io: eventsTo(() => undefined),
    command: 'deploy',
    regions: ['us-east-1'],
  }).then((engine) => engine.deploy(request, { concurrency: 2, rollback: false, ...options }));
}

describe('a Type change whose create returns the old physical id', () => {
  it('between two custom types: refused with NAMED_REPLACEMENT_IDEMPOTENT_CREATE, the resource not deleted', async () => {
    const name = `Equal${++stackCounter}`;
    await deploy(name, 'Custom::Old');
    cloud.calls.length = 0;
    const failure = failureOf(
      await deploy(name, 'Custom::New').then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(failure.codes).toContain('NAMED_REPLACEMENT_IDEMPOTENT_CREATE');
    expect(cloud.calls.map((call) => call.action)).toEqual(['create']);
    expect(cloud.live.has('same-id')).toBe(true);
    const state = (await backend.store.read({ stackName: name, region: 'us-east-1' }))!.document;
    expect(state.resources.R?.type).toBe('Custom::Old');
    expect(state.pendingDeletes).toEqual([]);
  });

  it('between two custom types under --replace: the old resource is deleted first, then created', async () => {
    const name = `Equal${++stackCounter}`;
    await deploy(name, 'Custom::Old');
    cloud.calls.length = 0;
    await deploy(name, 'AWS::CloudFormation::CustomResource', { replace: true });
    expect(cloud.calls.map((call) => `${call.action}:${call.type}`)).toEqual([
      'delete:Custom::Old',
      'create:AWS::CloudFormation::CustomResource',
    ]);
    expect(cloud.live.get('same-id')?.type).toBe('AWS::CloudFormation::CustomResource');
  });

  it('between two other types: two resources, the old one deleted through its own type', async () => {
    const name = `Equal${++stackCounter}`;
    await deploy(name, 'AWS::SNS::Topic');
    cloud.calls.length = 0;
    await deploy(name, 'AWS::Logs::LogGroup');
    expect(cloud.calls.map((call) => `${call.action}:${call.type}`)).toEqual([
      'create:AWS::Logs::LogGroup',
      'delete:AWS::SNS::Topic',
    ]);
  });
});
