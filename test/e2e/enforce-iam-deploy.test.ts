import { CreatePolicyCommand, IAMClient } from '@aws-sdk/client-iam';
import { Duration, Stack, aws_sns as sns, aws_sqs as sqs } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A CI account deploys into a target bootstrapped trusting it, whose deploy role may do
// everything but sqs:CreateQueue (a customer managed policy as --execution-policies).
const CI = '111111111111';
const TARGET = '555555555555';
const ROLE = `cdkd-hnb659fds-deploy-role-${TARGET}-us-east-1`;
// Another target whose deploy role may do only what the app and cdkd's own state need.
const LEAST = '666666666666';

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

/** Bootstraps `account` trusting CI, its deploy role acting under a customer managed policy of these statements. */
async function bootstrapWith(account: string, name: string, statements: unknown[]): Promise<void> {
  const iam = new IAMClient({
    endpoint: sandbox.current.url,
    region: 'us-east-1',
    credentials: { accessKeyId: account, secretAccessKey: 'sandbox-secret' },
  });
  await iam.send(
    new CreatePolicyCommand({
      PolicyName: name,
      PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: statements }),
    }),
  );
  const bootstrapped = await cli(
    account,
    'bootstrap',
    `aws://${account}/us-east-1`,
    '--trust',
    CI,
    '--execution-policies',
    `arn:aws:iam::${account}:policy/${name}`,
  );
  expect(bootstrapped.code, bootstrapped.stderr).toBe(0);
}

beforeAll(async () => {
  await bootstrapWith(TARGET, 'deploy-without-queues', [
    { Effect: 'Allow', NotAction: 'sqs:CreateQueue', Resource: '*' },
  ]);
  await bootstrapWith(LEAST, 'least-privilege', [
    {
      Effect: 'Allow',
      Action: ['s3:*'],
      Resource: [`arn:aws:s3:::cdkd-state-${LEAST}`, `arn:aws:s3:::cdkd-state-${LEAST}/*`],
    },
    { Effect: 'Allow', Action: ['sqs:*'], Resource: `arn:aws:sqs:us-east-1:${LEAST}:least-*` },
    // An update reads the type's schema from the registry for its replacement verdicts.
    { Effect: 'Allow', Action: 'cloudformation:DescribeType', Resource: '*' },
  ]);
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

  it('a deploy role allowed exactly what the app and cdkd need deploys, updates and destroys under enforcement', async () => {
    const app = (visibility: number) =>
      synthesizeApp((cdkApp) => {
        const stack = new Stack(cdkApp, 'LeastPrivilege', { env: { account: LEAST, region: 'us-east-1' } });
        new sqs.Queue(stack, 'Queue', {
          queueName: 'least-queue',
          visibilityTimeout: Duration.seconds(visibility),
        });
      });
    const deployed = await cli(CI, 'deploy', '-a', app(30));
    expect(deployed.code, deployed.stderr).toBe(0);
    const updated = await cli(CI, 'deploy', '-a', app(60));
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toContain('1 updated');
    // Nothing was refused on the way (a refused DescribeType would be a warning, after retries).
    expect(`${deployed.stderr}${updated.stderr}`).not.toContain('not authorized');
    const destroyed = await cli(CI, 'destroy', '-a', app(60), '--yes');
    expect(destroyed.code, destroyed.stderr).toBe(0);
  });
});
