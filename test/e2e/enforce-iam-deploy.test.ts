import { CreatePolicyCommand, IAMClient } from '@aws-sdk/client-iam';
import { Stack, aws_sns as sns, aws_sqs as sqs } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A CI account deploys into a target bootstrapped trusting it, whose deploy role may do
// everything but sqs:CreateQueue (a customer managed policy as --execution-policies).
const CI = '111111111111';
const TARGET = '555555555555';
const POLICY = `arn:aws:iam::${TARGET}:policy/deploy-without-queues`;
const ROLE = `cdkd-hnb659fds-deploy-role-${TARGET}-us-east-1`;

const sandbox = useSandbox({ enforceIam: true });
const cli = (account: string, ...args: string[]) =>
  runCli(args, { env: { ...sandboxEnv(sandbox.current.url), AWS_ACCESS_KEY_ID: account } });
const setEnforcement = (enforce: boolean) =>
  fetch(`${sandbox.current.url}/_sandbox/iam`, { method: 'PUT', body: JSON.stringify({ enforce }) });

/** What the sandbox holds of the app: topics and queues. */
async function appResources(): Promise<string[]> {
  return (await liveResources(sandbox.current.url))
    .filter((resource) => resource.type === 'AWS::SNS::Topic' || resource.type === 'AWS::SQS::Queue')
    .map((resource) => `${resource.type} ${resource.id}`);
}

beforeAll(async () => {
  const iam = new IAMClient({
    endpoint: sandbox.current.url,
    region: 'us-east-1',
    credentials: { accessKeyId: TARGET, secretAccessKey: 'sandbox-secret' },
  });
  await iam.send(
    new CreatePolicyCommand({
      PolicyName: 'deploy-without-queues',
      PolicyDocument: JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', NotAction: 'sqs:CreateQueue', Resource: '*' }],
      }),
    }),
  );
  const bootstrapped = await cli(
    TARGET,
    'bootstrap',
    `aws://${TARGET}/us-east-1`,
    '--trust',
    CI,
    '--execution-policies',
    POLICY,
  );
  expect(bootstrapped.code, bootstrapped.stderr).toBe(0);
});

describe('--enforce-iam: a cross-account deploy through a deploy role narrowed by --execution-policies', () => {
  it('fails naming the missing action, rolls back what it made; without enforcement the same deploy succeeds', async () => {
    const app = synthesizeApp((cdkApp) => {
      const stack = new Stack(cdkApp, 'Narrowed', { env: { account: TARGET, region: 'us-east-1' } });
      const topic = new sns.Topic(stack, 'Topic', { topicName: 'narrowed-topic' });
      // Made after the topic, so the refusal comes with something to roll back.
      new sqs.Queue(stack, 'Queue', { queueName: 'narrowed-queue' }).node.addDependency(topic);
    });

    const refused = await cli(CI, 'deploy', '-a', app);
    expect(refused.code).not.toBe(0);
    // cdkd spends its IAM-propagation retry budget on the refusal first (spec 003), as on AWS.
    expect(refused.stderr).toContain('Error [DEPLOY_FAILED]');
    expect(refused.stderr).toContain(
      `User: arn:aws:sts::${TARGET}:assumed-role/${ROLE}/cdkd-${CI} is not authorized to perform: sqs:CreateQueue on resource: arn:aws:sqs:us-east-1:${TARGET}:narrowed-queue because no identity-based policy allows the sqs:CreateQueue action`,
    );
    expect(refused.stderr).toContain('Rolled back: the stack is as it was before this deploy.');
    expect(await appResources()).toEqual([]);

    expect((await setEnforcement(false)).status).toBe(200);
    try {
      const deployed = await cli(CI, 'deploy', '-a', app);
      expect(deployed.code, deployed.stderr).toBe(0);
      expect(await appResources()).toEqual([
        `AWS::SNS::Topic arn:aws:sns:us-east-1:${TARGET}:narrowed-topic`,
        'AWS::SQS::Queue narrowed-queue',
      ]);
    } finally {
      await setEnforcement(true);
    }
  });
});
