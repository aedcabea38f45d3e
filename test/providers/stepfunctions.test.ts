import { GetResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import {
  CreateStateMachineCommand,
  DescribeStateMachineCommand,
  ListTagsForResourceCommand,
  SFNClient,
  TagResourceCommand,
} from '@aws-sdk/client-sfn';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { driftOf } from '../../src/engine/drift/drift-rules.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import { TOKEN_TAG } from '../../src/providers/physical-names.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { withRetry, type RetryEvent } from '../../src/providers/retry.js';
import { registerSdkProviders } from '../../src/providers/sdk-providers.js';
import { StateMachineProvider } from '../../src/providers/stepfunctions/state-machine.js';
import { useSandbox } from '../helpers/sandbox.js';
import { scaledClock, setLatency } from './lambda-helpers.js';

const sandbox = useSandbox();
const type = 'AWS::StepFunctions::StateMachine';
const REGION = 'us-east-1';
const ACCOUNT = '000000000000';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/machine-role`;
const machines = new StateMachineProvider();
const cc = new CloudControlProvider();
let context: ProviderContext;
let sfn: SFNClient;

beforeAll(async () => {
  const clients = new AwsClients({ region: REGION });
  context = { clients, accountId: ACCOUNT, region: REGION, stackName: 'FlowStack' };
  sfn = await clients.client(SFNClient, REGION);
});
afterEach(async () => setLatency(sandbox.current.url, {}));

const pass = (result: string) =>
  JSON.stringify({ StartAt: 'Only', States: { Only: { Type: 'Pass', Result: result, End: true } } });
const describeMachine = (stateMachineArn: string) =>
  sfn.send(new DescribeStateMachineCommand({ stateMachineArn }));
const tagsOf = async (resourceArn: string) =>
  (await sfn.send(new ListTagsForResourceCommand({ resourceArn }))).tags ?? [];
const errorOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error as Error & { name: string },
  );

describe('AWS::StepFunctions::StateMachine provider', () => {
  it('creates under a token-derived name, returns Ref and GetAtt, updates in place, reads without drift, deletes', async () => {
    const logGroupArn = `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:/flows:*`;
    const properties = {
      DefinitionString: pass('v1'),
      RoleArn: ROLE,
      LoggingConfiguration: {
        Level: 'ALL',
        IncludeExecutionData: true,
        Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: logGroupArn } }],
      },
      Tags: [{ Key: 'team', Value: 'flows' }],
    };
    const request = { logicalId: 'Flow', type, properties, idempotencyToken: 'tok-flow' };
    const made = await machines.create(request, context);
    expect(made.physicalId).toMatch(
      new RegExp(`^arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:FlowStack-Flow-[A-Z0-9]{12}$`),
    );
    const name = made.physicalId.split(':').pop();
    expect(made.attributes).toEqual({ Arn: made.physicalId, Name: name });
    expect(made.creationIdentity).toMatchObject({ Arn: made.physicalId });
    // The same create again (its answer lost) meets its own machine, not a second one.
    expect((await machines.create(request, context)).physicalId).toBe(made.physicalId);
    const live = await describeMachine(made.physicalId);
    expect(live).toMatchObject({
      name,
      definition: pass('v1'),
      roleArn: ROLE,
      type: 'STANDARD',
      loggingConfiguration: {
        level: 'ALL',
        includeExecutionData: true,
        destinations: [{ cloudWatchLogsLogGroup: { logGroupArn } }],
      },
      tracingConfiguration: { enabled: false },
    });
    expect(await tagsOf(made.physicalId)).toEqual([{ key: 'team', value: 'flows' }]);
    const deleteRequest = { logicalId: 'Flow', type, physicalId: made.physicalId };
    const read = await machines.read({ ...deleteRequest, properties }, context);
    expect(driftOf(properties, read!.properties)).toEqual([]);

    const next = {
      DefinitionString: pass('v2'),
      RoleArn: ROLE,
      TracingConfiguration: { Enabled: true },
      Tags: [{ Key: 'env', Value: 'prod' }],
    };
    expect(machines.canUpdateInPlace(type, ['DefinitionString', 'LoggingConfiguration', 'Tags'])).toBe(true);
    const updated = await machines.update(
      { ...request, physicalId: made.physicalId, previousProperties: properties, properties: next },
      context,
    );
    expect(updated.physicalId).toBe(made.physicalId);
    expect(updated.attributes).toMatchObject({ Arn: made.physicalId, Name: name });
    expect(await describeMachine(made.physicalId)).toMatchObject({
      definition: pass('v2'),
      loggingConfiguration: { level: 'OFF' },
      tracingConfiguration: { enabled: true },
    });
    expect(await tagsOf(made.physicalId)).toEqual([{ key: 'env', value: 'prod' }]);
    const reread = await machines.read({ ...deleteRequest, properties: next }, context);
    expect(driftOf(next, reread!.properties)).toEqual([]);
    expect(driftOf(properties, reread!.properties)).not.toEqual([]);

    await machines.delete({ ...deleteRequest, properties: next }, context);
    expect((await errorOf(describeMachine(made.physicalId)))?.name).toBe('StateMachineDoesNotExist');
    expect(await machines.read({ ...deleteRequest, properties: next }, context)).toBeUndefined();
    // Already gone: deleted.
    await machines.delete({ ...deleteRequest, properties: next }, context);
  });

  it('sends DefinitionString with DefinitionSubstitutions applied, and reads it back in the template form', async () => {
    const properties = {
      StateMachineName: 'substituted',
      DefinitionString: JSON.stringify({
        StartAt: 'Call',
        States: { Call: { Type: 'Pass', Result: '${target}', End: true } },
      }),
      DefinitionSubstitutions: { target: 'arn:aws:lambda:us-east-1:000000000000:function:f' },
      RoleArn: ROLE,
      StateMachineType: 'EXPRESS',
    };
    const made = await machines.create({ logicalId: 'Sub', type, properties }, context);
    const live = await describeMachine(made.physicalId);
    expect(JSON.parse(live.definition!).States.Call.Result).toBe(
      'arn:aws:lambda:us-east-1:000000000000:function:f',
    );
    expect(live.type).toBe('EXPRESS');
    const read = await machines.read(
      { logicalId: 'Sub', type, physicalId: made.physicalId, properties },
      context,
    );
    expect(driftOf(properties, read!.properties)).toEqual([]);
  });

  it('decides replacement by the schema: a new name or type needs a new machine', () => {
    expect(machines.canUpdateInPlace(type, ['StateMachineName'])).toBe(false);
    expect(machines.canUpdateInPlace(type, ['StateMachineType'])).toBe(false);
    expect(machines.canUpdateInPlace(type, ['RoleArn', 'TracingConfiguration'])).toBe(true);
    expect(machines.uncoveredProperties(type, { DefinitionString: '{}', RoleArn: ROLE })).toEqual([]);
    expect(
      machines.uncoveredProperties(type, { DefinitionS3Location: { Bucket: 'b', Key: 'k' }, RoleArn: ROLE }),
    ).toEqual(['DefinitionS3Location']);
  });

  it('routes a CDK state machine to the SDK provider', async () => {
    const registry = registerSdkProviders(new ProviderRegistry(new CloudControlProvider()));
    await registry.load([type]);
    const routed = registry.route({ type, properties: { DefinitionString: pass('x'), RoleArn: ROLE } });
    expect(routed.provider).toBeInstanceOf(StateMachineProvider);
  });

  it('locates what a create with a token made: by its generated name, or by the token tag under a given name', async () => {
    const generated = { logicalId: 'Lost', type, idempotencyToken: 'tok-lost' };
    const properties = { DefinitionString: pass('lost'), RoleArn: ROLE };
    expect(await machines.locate({ ...generated, properties }, context)).toBe('none');
    const made = await machines.create({ ...generated, properties }, context);
    expect(await machines.locate({ ...generated, properties }, context)).toEqual({
      physicalId: made.physicalId,
    });

    const named = { ...properties, StateMachineName: 'named-lost' };
    const first = await machines.create({ ...generated, properties: named }, context);
    expect(await tagsOf(first.physicalId)).toEqual([{ key: TOKEN_TAG, value: 'tok-lost' }]);
    expect(await machines.locate({ ...generated, properties: named }, context)).toEqual({
      physicalId: first.physicalId,
    });
    expect(
      await machines.locate({ ...generated, idempotencyToken: 'tok-other', properties: named }, context),
    ).toBe('none');
    expect(await machines.locate({ logicalId: 'Lost', type, properties: named }, context)).toBe('unknown');
    expect(await machines.nameHolder({ logicalId: 'Lost', type, properties: named }, context)).toEqual({
      name: 'named-lost',
      holder: first.physicalId,
    });
    expect(await machines.nameHolder({ logicalId: 'Lost', type, properties }, context)).toBeUndefined();
  });

  it("answers AWS's codes for bad input", async () => {
    const bad = (properties: Record<string, unknown>) =>
      errorOf(machines.create({ logicalId: 'Bad', type, properties }, context));
    expect(
      (await bad({ DefinitionString: '{"StartAt": "Nowhere", "States": {}}', RoleArn: ROLE }))?.name,
    ).toBe('InvalidDefinition');
    expect((await bad({ DefinitionString: 'not json', RoleArn: ROLE }))?.name).toBe('InvalidDefinition');
    expect((await bad({ DefinitionString: pass('x'), RoleArn: 'not-an-arn' }))?.name).toBe('InvalidArn');
    expect(
      (await bad({ StateMachineName: 'has space', DefinitionString: pass('x'), RoleArn: ROLE }))?.name,
    ).toBe('InvalidName');
    await sfn.send(new CreateStateMachineCommand({ name: 'taken', definition: pass('a'), roleArn: ROLE }));
    expect((await bad({ StateMachineName: 'taken', DefinitionString: pass('b'), RoleArn: ROLE }))?.name).toBe(
      'StateMachineAlreadyExists',
    );
  });

  it('gets through IAM propagation: a new role refused at first, retried on the propagation schedule', async () => {
    await setLatency(sandbox.current.url, { 'AWS::IAM::Role': { create: 400 } });
    const iam = await context.clients.client(IAMClient, REGION);
    const { Role } = await iam.send(
      new CreateRoleCommand({
        RoleName: 'fresh-states',
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: { Service: 'states.amazonaws.com' }, Action: 'sts:AssumeRole' },
          ],
        }),
      }),
    );
    const provider = new StateMachineProvider();
    const clock = scaledClock(0.05);
    const retries: RetryEvent[] = [];
    const properties = { DefinitionString: pass('fresh'), RoleArn: Role!.Arn };
    // Two machines on the one new role: the second waits on the first one's probe.
    const made = await Promise.all(
      ['FreshA', 'FreshB'].map((logicalId) =>
        withRetry(() => provider.create({ logicalId, type, properties }, context), {
          label: logicalId,
          clock,
          onRetry: (event) => retries.push(event),
        }),
      ),
    );
    expect(made).toHaveLength(2);
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((event) => event.retryClass === 'iam-propagation')).toBe(true);
    expect((retries[0]!.error as Error).name).toBe('AccessDeniedException');
    expect((retries[0]!.error as Error).message).toContain('is authorized to assume the provided role');
  });

  it('refuses a role whose trust policy does not name Step Functions', async () => {
    const iam = await context.clients.client(IAMClient, REGION);
    const { Role } = await iam.send(
      new CreateRoleCommand({
        RoleName: 'lambda-only',
        AssumeRolePolicyDocument: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
          ],
        }),
      }),
    );
    const error = await errorOf(
      machines.create(
        { logicalId: 'Wrong', type, properties: { DefinitionString: pass('x'), RoleArn: Role!.Arn } },
        context,
      ),
    );
    expect(error?.name).toBe('AccessDeniedException');
  });

  it('reads and updates a machine Cloud Control made (one store), and Cloud Control sees the update', async () => {
    const properties = { StateMachineName: 'from-cc', DefinitionString: pass('cc'), RoleArn: ROLE };
    const made = await cc.create({ logicalId: 'Cc', type, properties }, context);
    const request = { logicalId: 'Cc', type, physicalId: made.physicalId, properties };
    expect((await machines.read(request, context))?.properties).toMatchObject(properties);
    await sfn.send(
      new TagResourceCommand({ resourceArn: made.physicalId, tags: [{ key: 'k', value: 'v' }] }),
    );
    const next = { ...properties, DefinitionString: pass('sdk') };
    await machines.update({ ...request, previousProperties: properties, properties: next }, context);
    const ccClient = await context.clients.cloudControl(REGION);
    const { ResourceDescription } = await ccClient.send(
      new GetResourceCommand({ TypeName: type, Identifier: made.physicalId }),
    );
    expect(JSON.parse(ResourceDescription!.Properties!)).toMatchObject({
      DefinitionString: pass('sdk'),
      Tags: [{ Key: 'k', Value: 'v' }],
    });
  });
});
