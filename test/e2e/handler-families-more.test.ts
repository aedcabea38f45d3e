import { DescribeRepositoriesCommand, ECRClient } from '@aws-sdk/client-ecr';
import { GetOpenIDConnectProviderCommand, IAMClient } from '@aws-sdk/client-iam';
import { GetParametersByPathCommand, SSMClient } from '@aws-sdk/client-ssm';
import { ACMClient, ListCertificatesCommand } from '@aws-sdk/client-acm';
import {
  aws_certificatemanager as acm,
  aws_cognito as cognito,
  aws_synthetics as synthetics,
  aws_ecr as ecr,
  aws_iam as iam,
  aws_lambda as lambda,
  aws_route53 as route53,
  aws_s3 as s3,
  aws_codedeploy as codedeploy,
  triggers,
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
} from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { deployUpdateDestroy, sandboxClient } from '../helpers/handler-apps.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Issue 35: the other custom-resource handler families docs/_generated/cdk-handler-calls.md
// lists, each an aws-cdk-lib app deployed, updated and destroyed through the built CLI.
const sandbox = useSandbox();
const client = <C>(Client: new (config: object) => C, region = 'us-east-1'): C =>
  sandboxClient(sandbox.current.url, Client, region);
const ACCOUNT = '000000000000';

beforeAll(async () => {
  const env = sandboxEnv(sandbox.current.url);
  for (const region of ['us-east-1', 'us-west-2']) {
    expect((await runCli(['bootstrap', '--region', region], { env })).code).toBe(0);
  }
});

describe('more handler families on the sandbox', () => {
  it('ECR emptyOnDelete: the auto-delete-images handler empties the repository, which is then deleted', async () => {
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const stack = new Stack(app, 'HcEcrAutoDelete');
        const repo = new ecr.Repository(stack, 'Repo', {
          emptyOnDelete: true,
          removalPolicy: RemovalPolicy.DESTROY,
        });
        repo.addLifecycleRule({ maxImageCount: version === 1 ? 5 : 10 });
        new CfnOutput(stack, 'Name', { value: repo.repositoryName });
      },
      async (outputs) => {
        const names = (await client(ECRClient).send(new DescribeRepositoriesCommand({}))).repositories?.map(
          (repo) => repo.repositoryName,
        );
        expect(names).toContain(outputs['HcEcrAutoDelete.Name']);
      },
    );
  }, 300_000);

  it('cross-region references: the writer puts the exports in the consumer region, the reader tags them, both clean up', async () => {
    const exports = async () =>
      (
        await client(SSMClient, 'us-east-1').send(
          new GetParametersByPathCommand({ Path: '/cdk/exports/', Recursive: true }),
        )
      ).Parameters?.map((parameter) => parameter.Name) ?? [];
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const producer = new Stack(app, 'HcXrProducer', {
          env: { account: ACCOUNT, region: 'us-west-2' },
          crossRegionReferences: true,
        });
        const bucket = new s3.Bucket(producer, 'Bucket', { removalPolicy: RemovalPolicy.DESTROY });
        const consumer = new Stack(app, 'HcXrConsumer', {
          env: { account: ACCOUNT, region: 'us-east-1' },
          crossRegionReferences: true,
        });
        new CfnOutput(consumer, 'BucketName', { value: bucket.bucketName });
        if (version === 2) new CfnOutput(consumer, 'BucketArn', { value: bucket.bucketArn });
      },
      async (outputs, version) => {
        expect(outputs['HcXrConsumer.BucketName']).toMatch(/^hcxrproducer-bucket/);
        expect(await exports()).toHaveLength(version);
      },
    );
    expect(await exports()).toEqual([]);
  }, 400_000);

  it('a record with deleteExisting, an OIDC provider, a trigger and a custom CodeDeploy config', async () => {
    let providerArn = '';
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const stack = new Stack(app, 'HcSmallHandlers');
        const zone = new route53.PublicHostedZone(stack, 'Zone', { zoneName: 'handlers.example.com' });
        new route53.TxtRecord(stack, 'Txt', {
          zone,
          recordName: 'hello',
          values: [`v${version}`],
          deleteExisting: true,
        });
        const provider = new iam.OpenIdConnectProvider(stack, 'Oidc', {
          url: 'https://oidc.handlers.example.com',
          clientIds: version === 1 ? ['one'] : ['one', 'two'],
          thumbprints: ['9e99a48a9960b14926bb7f3b02e22da2b0ab7280'],
        });
        new CfnOutput(stack, 'ProviderArn', { value: provider.openIdConnectProviderArn });
        new triggers.TriggerFunction(stack, 'Trigger', {
          runtime: lambda.Runtime.NODEJS_20_X,
          handler: 'index.handler',
          code: lambda.Code.fromInline(`exports.handler = async () => ({ version: ${version} });`),
          timeout: Duration.seconds(30),
        });
        new codedeploy.CustomLambdaDeploymentConfig(stack, 'Config', {
          type: codedeploy.CustomLambdaDeploymentConfigType.LINEAR,
          interval: Duration.minutes(1),
          percentage: 5,
        });
      },
      async (outputs, version) => {
        providerArn = outputs['HcSmallHandlers.ProviderArn']!;
        const provider = await client(IAMClient).send(
          new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: providerArn }),
        );
        expect(provider.ClientIDList).toEqual(version === 1 ? ['one'] : ['one', 'two']);
      },
    );
    await expect(
      client(IAMClient).send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: providerArn })),
    ).rejects.toThrow(expect.objectContaining({ name: 'NoSuchEntityException' }));
  }, 400_000);

  it("a user-pool client's secret, read by the AwsCustomResource aws-cdk-lib makes for it", async () => {
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const stack = new Stack(app, 'HcCognitoSecret');
        const pool = new cognito.UserPool(stack, 'Pool', { removalPolicy: RemovalPolicy.DESTROY });
        const poolClient = pool.addClient('Client', {
          generateSecret: true,
          userPoolClientName: `client-v${version}`,
        });
        new CfnOutput(stack, 'Secret', { value: poolClient.userPoolClientSecret.unsafeUnwrap() });
      },
      async (outputs) => {
        expect(outputs['HcCognitoSecret.Secret']).toMatch(/^[\w-]{51}$/);
      },
    );
  }, 300_000);

  it('a DNS-validated certificate (its records cleaned up) and a canary whose Lambda is cleaned up', async () => {
    await deployUpdateDestroy(
      sandbox.current.url,
      (app, version) => {
        const stack = new Stack(app, 'HcCertificateCanary');
        const zone = new route53.PublicHostedZone(stack, 'Zone', { zoneName: 'certs.example.com' });
        new acm.DnsValidatedCertificate(stack, 'Certificate', {
          domainName: 'www.certs.example.com',
          hostedZone: zone,
          cleanupRoute53Records: true,
        });
        // The canary's own artifacts bucket is retained by default; this one goes with the stack.
        const artifacts = new s3.Bucket(stack, 'Artifacts', {
          removalPolicy: RemovalPolicy.DESTROY,
          lifecycleRules: [{ expiration: Duration.days(version === 1 ? 30 : 60) }],
        });
        new synthetics.Canary(stack, 'Canary', {
          runtime: synthetics.Runtime.SYNTHETICS_NODEJS_PUPPETEER_9_1,
          test: synthetics.Test.custom({
            handler: 'index.handler',
            code: synthetics.Code.fromInline(`exports.handler = async () => ${version};`),
          }),
          cleanup: synthetics.Cleanup.LAMBDA,
          artifactsBucketLocation: { bucket: artifacts },
        });
      },
      async () => {
        const certificates = await sandboxClient(sandbox.current.url, ACMClient).send(
          new ListCertificatesCommand({}),
        );
        expect(certificates.CertificateSummaryList?.map((certificate) => certificate.DomainName)).toEqual([
          'www.certs.example.com',
        ]);
      },
    );
    // The handlers ran: the certificate's, and the canary cleanup's on delete.
    const calls = (
      (await (await fetch(`${sandbox.current.url}/_sandbox/calls`)).json()) as {
        calls: Record<string, { count: number }>;
      }
    ).calls;
    for (const call of ['acm:RequestCertificate', 'acm:DeleteCertificate', 'synthetics:GetCanary']) {
      expect(calls[call]?.count, call).toBeGreaterThan(0);
    }
  }, 400_000);
});
