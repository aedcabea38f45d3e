import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import {
  DeleteParameterCommand,
  GetParameterCommand,
  GetParametersByPathCommand,
  GetParametersCommand,
  PutParameterCommand,
  SSMClient,
} from '@aws-sdk/client-ssm';
import { App, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { failure } from './helpers.js';

let sandbox: Sandbox;
const clients: Array<{ destroy(): void }> = [];
const credentials = { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' };

function ssm(region = 'us-east-1'): SSMClient {
  const client = new SSMClient({ endpoint: sandbox.url, region, credentials, maxAttempts: 1 });
  clients.push(client);
  return client;
}

function ec2Client(region = 'us-east-1'): EC2Client {
  const client = new EC2Client({ endpoint: sandbox.url, region, credentials, maxAttempts: 1 });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  for (const client of clients) client.destroy();
  await sandbox.stop();
});

const IMAGE_COUNT = 13;
const AL2023 = '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64';

/** The SSM parameter names aws-cdk-lib's machine images read, from a template it synthesizes. */
function machineImageParameters(): string[] {
  const app = new App();
  const stack = new Stack(app, 'Images', { env: { account: '000000000000', region: 'eu-west-1' } });
  const images: ec2.IMachineImage[] = [
    ec2.MachineImage.latestAmazonLinux2023(),
    ec2.MachineImage.latestAmazonLinux2023({
      cpuType: ec2.AmazonLinuxCpuType.ARM_64,
      edition: ec2.AmazonLinuxEdition.MINIMAL,
    }),
    ec2.MachineImage.latestAmazonLinux2(),
    ec2.MachineImage.latestAmazonLinux2({
      kernel: ec2.AmazonLinux2Kernel.KERNEL_5_10,
      cpuType: ec2.AmazonLinuxCpuType.ARM_64,
    }),
    ec2.MachineImage.latestAmazonLinux({ generation: ec2.AmazonLinuxGeneration.AMAZON_LINUX }),
    ec2.MachineImage.latestWindows(ec2.WindowsVersion.WINDOWS_SERVER_2022_ENGLISH_FULL_BASE),
    ec2.MachineImage.latestWindows(ec2.WindowsVersion.WINDOWS_SERVER_2019_ENGLISH_CORE_BASE),
    ecs.EcsOptimizedImage.amazonLinux2(),
    ecs.EcsOptimizedImage.amazonLinux2(ecs.AmiHardwareType.ARM),
    ecs.EcsOptimizedImage.amazonLinux2023(ecs.AmiHardwareType.GPU),
    ecs.EcsOptimizedImage.windows(ecs.WindowsOptimizedVersion.SERVER_2019),
    new ecs.BottleRocketImage(),
    new ecs.BottleRocketImage({
      variant: ecs.BottlerocketEcsVariant.AWS_ECS_2,
      architecture: ec2.InstanceArchitecture.ARM_64,
    }),
  ];
  expect(images).toHaveLength(IMAGE_COUNT);
  for (const image of images) image.getImage(stack);
  const template = app.synth().getStackByName('Images').template as {
    Parameters: Record<string, { Type: string; Default?: string }>;
  };
  return Object.values(template.Parameters)
    .filter((parameter) => parameter.Type.startsWith('AWS::SSM::Parameter::Value'))
    .map((parameter) => parameter.Default!)
    .filter((name) => name.startsWith('/aws/service/'));
}

describe("AWS's public SSM parameters", () => {
  it('answers every parameter aws-cdk-lib machine images read, with an image EC2 knows in that region', async () => {
    const names = machineImageParameters();
    expect(names).toHaveLength(IMAGE_COUNT);
    const parameters = [];
    for (let at = 0; at < names.length; at += 10) {
      const page = await ssm('eu-west-1').send(new GetParametersCommand({ Names: names.slice(at, at + 10) }));
      expect(page.InvalidParameters).toEqual([]);
      parameters.push(...page.Parameters!);
    }
    const ids = parameters.map((parameter) => parameter.Value!);
    for (const id of ids) expect(id).toMatch(/^ami-[0-9a-f]{17}$/);
    const images = await ec2Client('eu-west-1').send(
      new DescribeImagesCommand({ ImageIds: [...new Set(ids)] }),
    );
    expect(images.Images).toHaveLength(new Set(ids).size);
  });

  it('gives stable ids that differ between regions, with an account-less ARN', async () => {
    const east = (await ssm('us-east-1').send(new GetParameterCommand({ Name: AL2023 }))).Parameter!;
    const again = (await ssm('us-east-1').send(new GetParameterCommand({ Name: AL2023 }))).Parameter!;
    const west = (await ssm('eu-west-1').send(new GetParameterCommand({ Name: AL2023 }))).Parameter!;
    expect(again.Value).toBe(east.Value);
    expect(west.Value).not.toBe(east.Value);
    expect(east).toMatchObject({ Type: 'String', ARN: `arn:aws:ssm:us-east-1::parameter${AL2023}` });
    const image = (await ec2Client('us-east-1').send(new DescribeImagesCommand({ ImageIds: [east.Value!] })))
      .Images![0]!;
    expect(image).toMatchObject({ Architecture: 'x86_64', ImageOwnerAlias: 'amazon' });
    expect(image.Name).toMatch(/^al2023-ami-2023\..*-kernel-6\.1-x86_64$/);
  });

  it("serves ECS's recommended document as JSON with its fields as sub-parameters", async () => {
    const base = '/aws/service/ecs/optimized-ami/amazon-linux-2/recommended';
    const document = JSON.parse(
      (await ssm().send(new GetParameterCommand({ Name: base }))).Parameter!.Value!,
    );
    expect(document).toMatchObject({ schema_version: 1, image_id: expect.stringMatching(/^ami-/) });
    const below = await ssm().send(new GetParametersByPathCommand({ Path: base }));
    const byName = Object.fromEntries(
      below.Parameters!.map((parameter) => [parameter.Name, parameter.Value]),
    );
    expect(byName[`${base}/image_id`]).toBe(document.image_id);
    expect(byName[`${base}/image_name`]).toBe(document.image_name);
  });

  it('reads a path one level deep, or all of it with Recursive, ten at a time', async () => {
    const client = ssm();
    const direct = await client.send(
      new GetParametersByPathCommand({ Path: '/aws/service/ecs/optimized-ami/amazon-linux-2' }),
    );
    expect(direct.Parameters!.map((parameter) => parameter.Name)).toEqual([
      '/aws/service/ecs/optimized-ami/amazon-linux-2/recommended',
    ]);
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new GetParametersByPathCommand({
          Path: '/aws/service/ecs/optimized-ami/amazon-linux-2/',
          Recursive: true,
          NextToken: token,
        }),
      );
      expect(page.Parameters!.length).toBeLessThanOrEqual(10);
      names.push(...page.Parameters!.map((parameter) => parameter.Name!));
      token = page.NextToken;
    } while (token);
    expect(names).toContain('/aws/service/ecs/optimized-ami/amazon-linux-2/arm64/recommended/image_id');
    expect(new Set(names).size).toBe(names.length);
  });

  it('refuses writes to the public namespace as AWS does, and still reads the parameter', async () => {
    const put = await failure(
      ssm().send(new PutParameterCommand({ Name: AL2023, Value: 'ami-1', Type: 'String', Overwrite: true })),
    );
    expect(put.name).toBe('ValidationException');
    expect(put.error.message).toContain('prefixed with "aws" or "ssm"');
    const remove = await failure(ssm().send(new DeleteParameterCommand({ Name: AL2023 })));
    expect(remove.name).toBe('AccessDeniedException');
    expect((await ssm().send(new GetParameterCommand({ Name: AL2023 }))).Parameter!.Value).toMatch(/^ami-/);
    const unknown = await failure(
      ssm().send(new GetParameterCommand({ Name: '/aws/service/no/such/thing' })),
    );
    expect(unknown.name).toBe('ParameterNotFound');
  });
});
