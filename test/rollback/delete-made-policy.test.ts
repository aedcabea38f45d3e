import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { secretValueReader } from '../../src/aws/secret-values.js';
import { ssmParameterReader } from '../../src/aws/ssm-parameters.js';
import { sendableProperties } from '../../src/engine/planning/dynamic-references.js';
import type { Engine } from '../../src/engine/engine.js';
import type { StackState } from '../../src/stack-state/stack-state.js';
import { CloudControlProvider } from '../../src/providers/cloudcontrol/provider.js';
import type { ProviderContext } from '../../src/providers/provider.js';
import { ProviderRegistry } from '../../src/providers/registry.js';
import { registerSns } from '../../src/providers/sns/index.js';
import { registerSqs } from '../../src/providers/sqs/index.js';
import { QueueProvider } from '../../src/providers/sqs/queue.js';
import { replayStep, type ReplayServices } from '../../src/rollback/replay-step.js';
import type { RollbackStep } from '../../src/rollback-decisions/steps.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { clearFaults, failNext } from '../providers/made-helpers.js';
import { engineWith, providerContext, startProviderSandbox } from '../providers/sqs-helpers.js';

let sandbox: Sandbox;
let context: ProviderContext;
let sqs: SQSClient;
let services: ReplayServices;
const queues = new QueueProvider();

beforeAll(async () => {
  sandbox = await startProviderSandbox();
  context = providerContext('Replay');
  sqs = await context.clients.client(SQSClient, 'us-east-1');
  const clients = new AwsClients({ region: 'us-east-1' });
  services = {
    // deleteMade never touches state.
    state: {} as StackState,
    router: registerSns(registerSqs(new ProviderRegistry(new CloudControlProvider()))),
    context,
    sendable: sendableProperties(
      ssmParameterReader(clients, 'us-east-1'),
      secretValueReader(clients, 'us-east-1'),
    ),
    retry: (_label, call) => call(),
    replayNested: () => Promise.reject(new Error('no nested stacks here')),
  };
});
afterEach(() => clearFaults(sandbox));
afterAll(async () => {
  await sandbox.stop();
});

const document = (condition: string) => ({
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Principal: '*',
      Action: 'sqs:SendMessage',
      Resource: '*',
      Condition: { StringEquals: { 'aws:SourceAccount': condition } },
    },
  ],
});

let counter = 0;
async function newQueue(): Promise<string> {
  counter += 1;
  const created = await queues.create(
    { logicalId: `Q${counter}`, type: 'AWS::SQS::Queue', properties: {} },
    context,
  );
  return created.physicalId;
}
const policyOf = async (url: string) =>
  (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['Policy'] }))).Attributes
    ?.Policy;
const setPolicy = (url: string, policy: unknown) =>
  sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: JSON.stringify(policy) } }));

function step(properties: Record<string, unknown>, extra: Partial<RollbackStep> = {}): RollbackStep {
  return {
    kind: 'delete-made',
    logicalId: 'Policy',
    type: 'AWS::SQS::QueuePolicy',
    physicalId: 'Replay-Policy-ABCDEFGHIJKL',
    provisionedBy: 'sdk',
    properties,
    retain: false,
    needsIdentityProof: false,
    ...extra,
  } as RollbackStep;
}

describe('delete-made of a QueuePolicy', () => {
  it('clears a queue still holding the attempted document, its secret reference resolved first', async () => {
    const secrets = await context.clients.client(SecretsManagerClient, 'us-east-1');
    await secrets.send(new CreateSecretCommand({ Name: 'source-account', SecretString: '111122223333' }));
    const queue = await newQueue();
    await setPolicy(queue, document('111122223333'));
    const outcome = await replayStep(
      step({
        PolicyDocument: document('{{resolve:secretsmanager:source-account}}'),
        Queues: [queue],
      }),
      services,
    );
    expect(outcome).toMatchObject({ status: 'succeeded', warn: false });
    expect(await policyOf(queue)).toBeUndefined();
  });

  it('leaves a queue whose policy was replaced, with a warning naming it', async () => {
    const [held, replaced] = [await newQueue(), await newQueue()];
    await setPolicy(held, document('111122223333'));
    await setPolicy(replaced, document('444455556666'));
    const outcome = await replayStep(
      step({ PolicyDocument: document('111122223333'), Queues: [held, replaced] }),
      services,
    );
    expect(outcome).toMatchObject({ status: 'succeeded', warn: true });
    expect(outcome.message).toContain(replaced);
    expect(outcome.message).not.toContain(held);
    expect(await policyOf(held)).toBeUndefined();
    expect(await policyOf(replaced)).toBeDefined();
  });

  it('with a masked document clears nothing and warns naming every queue', async () => {
    const [a, b] = [await newQueue(), await newQueue()];
    await setPolicy(a, document('111122223333'));
    const outcome = await replayStep(step({ PolicyDocument: document('***'), Queues: [a, b] }), services);
    expect(outcome).toMatchObject({ status: 'succeeded', warn: true });
    expect(outcome.message).toContain(`${a} (the attempted document is masked (NoEcho))`);
    expect(outcome.message).toContain(b);
    expect(await policyOf(a)).toBeDefined();
  });

  it('with a secret that does not exist clears nothing and warns naming every queue', async () => {
    const queue = await newQueue();
    await setPolicy(queue, document('111122223333'));
    const outcome = await replayStep(
      step({ PolicyDocument: document('{{resolve:secretsmanager:no-such-secret}}'), Queues: [queue] }),
      services,
    );
    expect(outcome).toMatchObject({ status: 'succeeded', warn: true });
    expect(outcome.message).toMatch(/no-such-secret does not exist/);
    expect(outcome.message).toContain(queue);
    expect(await policyOf(queue)).toBeDefined();
  });

  it('fails, for a re-run, when a secret cannot be read for another reason', async () => {
    const queue = await newQueue();
    await setPolicy(queue, document('111122223333'));
    await failNext(sandbox, 'secretsmanager', 'GetSecretValue', { errorCode: 'AccessDeniedException' });
    const outcome = await replayStep(
      step({ PolicyDocument: document('{{resolve:secretsmanager:source-account}}'), Queues: [queue] }),
      services,
    );
    expect(outcome).toMatchObject({ status: 'failed', warn: false });
    expect(await policyOf(queue)).toBeDefined();
  });

  it('fails, for a re-run, when a policy cannot be read', async () => {
    const queue = await newQueue();
    await setPolicy(queue, document('111122223333'));
    await failNext(sandbox, 'sqs', 'GetQueueAttributes', { errorCode: 'AccessDenied' });
    const outcome = await replayStep(
      step({ PolicyDocument: document('111122223333'), Queues: [queue] }),
      services,
    );
    expect(outcome).toMatchObject({ status: 'failed', warn: false });
    expect(await policyOf(queue)).toBeDefined();
  });

  it('forwards the queues this deploy just wrote, which are left with a warning', async () => {
    const queue = await newQueue();
    await setPolicy(queue, document('111122223333'));
    const outcome = await replayStep(
      step(
        { PolicyDocument: document('111122223333'), Queues: [queue] },
        { appliedByThisDeploy: [{ Queues: [queue] }] },
      ),
      services,
    );
    expect(outcome).toMatchObject({ status: 'succeeded', warn: true });
    expect(outcome.message).toContain(queue);
    expect(await policyOf(queue)).toBeDefined();
  });
});

describe('through the engine', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await engineWith(registerSqs, 'delete-made-policy-state');
  });

  it('a QueuePolicy create that wrote one queue and failed is rolled back off that queue only', async () => {
    const [first, second] = [await newQueue(), await newQueue()];
    // The second queue already holds the same document from elsewhere: not the failed create's.
    await setPolicy(second, document('111122223333'));
    await failNext(sandbox, 'sqs', 'SetQueueAttributes', { nth: 2 });
    const request = {
      stateName: 'MadePolicy',
      stackName: 'MadePolicy',
      region: 'us-east-1',
      accountId: '123456789012',
      template: {
        Resources: {
          Policy: {
            Type: 'AWS::SQS::QueuePolicy',
            Properties: { Queues: [first, second], PolicyDocument: document('111122223333') },
          },
        },
      },
    };
    await expect(engine.deploy(request, { concurrency: 1 })).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    expect(await policyOf(first)).toBeUndefined();
    expect(await policyOf(second)).toBeDefined();
  });

  it('a successful deploy leaves a queue one of its own policies just wrote, and warns (exit 2)', async () => {
    const queue = await newQueue();
    const request = (resources: Record<string, unknown>) => ({
      stateName: 'FixForwardPolicy',
      stackName: 'FixForwardPolicy',
      region: 'us-east-1',
      accountId: '123456789012',
      template: { Resources: resources },
    });
    const policy = {
      Type: 'AWS::SQS::QueuePolicy',
      Properties: { Queues: [queue], PolicyDocument: document('1') },
    };
    // Writes the queue, then the second (missing) queue fails it: a made entry under --no-rollback.
    await expect(
      engine.deploy(
        request({
          Old: { ...policy, Properties: { ...policy.Properties, Queues: [queue, `${queue}-missing`] } },
        }),
        { concurrency: 1, rollback: false },
      ),
    ).rejects.toMatchObject({ code: 'DEPLOY_FAILED' });
    expect(await policyOf(queue)).toBeDefined();

    // The fix-forward's own policy writes the same document to the same queue.
    const result = await engine.deploy(request({ New: policy }), { concurrency: 1 });
    expect(result.unaddressed).toEqual([expect.stringContaining(queue)]);
    expect(await policyOf(queue)).toBeDefined();
  });
});
