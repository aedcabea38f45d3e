import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeImagesCommand, ECRClient } from '@aws-sdk/client-ecr';
import { CfnOutput, Stack } from 'aws-cdk-lib';
import { SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { DockerImageAsset } from 'aws-cdk-lib/aws-ecr-assets';
import { Cluster, ContainerImage, FargateService, FargateTaskDefinition } from 'aws-cdk-lib/aws-ecs';
import { DockerImageCode, DockerImageFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// Images are built for real with podman as CDK_DOCKER (FROM scratch: no base image can be
// pulled here) and pushed to the sandbox's registry; podman keeps its images, its storage
// settings and its registry login in a temp dir, so the machine's own config is untouched.
const podman = spawnSync('podman', ['--version']).status === 0;
const ACCOUNT_REPOSITORY = /^cdk-hnb659fds-container-assets-\d{12}-us-east-1$/;

// Writes a file beside the asset manifest and prints its name, as a file asset's command does.
const FILE_COMMAND = "require('fs').writeFileSync('made.txt', 'made by a command'); console.log('made.txt')";

const sandbox = useSandbox();
let work: string;
let app: string;
let ecr: ECRClient;

function env(): Record<string, string> {
  return {
    ...sandboxEnv(sandbox.current.url),
    CDK_DOCKER: 'podman',
    CONTAINERS_STORAGE_CONF: join(work, 'storage.conf'),
    REGISTRY_AUTH_FILE: join(work, 'auth.json'),
  };
}

/** A FROM-scratch build context holding one file the test writes. */
function imageContext(name: string, content: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'Dockerfile'),
    'FROM scratch\nCOPY payload.txt /payload.txt\nCMD ["/payload.txt"]\n',
  );
  writeFileSync(join(dir, 'payload.txt'), content);
  return dir;
}

/** The image repository cdkd pushes to, or an image in it: asset storage, as the asset bucket is. */
function isAssetStorage(resource: { type: string; id: string }): boolean {
  const repository = resource.id.split('/').pop()!.split('@')[0]!;
  return (
    ['AWS::ECR::Repository', 'AWS::ECR::Image'].includes(resource.type) && ACCOUNT_REPOSITORY.test(repository)
  );
}

async function calls(): Promise<Record<string, { count: number }>> {
  const response = await fetch(`${sandbox.current.url}/_sandbox/calls`);
  return ((await response.json()) as { calls: Record<string, { count: number }> }).calls;
}

describe.skipIf(!podman)(
  `container image assets built with podman as CDK_DOCKER${podman ? '' : ' (skipped: podman is not installed; .ci/run installs it with apt)'}`,
  () => {
    beforeAll(async () => {
      expect(
        spawnSync('id', ['-u']).stdout.toString().trim(),
        'podman with vfs storage runs as root here',
      ).toBe('0');
      work = tempDir();
      writeFileSync(
        join(work, 'storage.conf'),
        `[storage]\ndriver = "vfs"\ngraphroot = "${join(work, 'root')}"\nrunroot = "${join(work, 'run')}"\n`,
      );
      const imageDir = imageContext('image', 'a plain image asset\n');
      const functionDir = imageContext('function', 'an image function\n');
      const execDir = imageContext('exec', 'an image a command built\n');
      const serviceDir = imageContext('service', 'a Fargate service image\n');
      app = synthesizeApp((cdk) => {
        const stack = new Stack(cdk, 'Images');
        const asset = new DockerImageAsset(stack, 'Plain', { directory: imageDir, buildArgs: { NOTE: 'x' } });
        new DockerImageFunction(stack, 'Fn', { code: DockerImageCode.fromImageAsset(functionDir) });
        new CfnOutput(stack, 'PlainUri', { value: asset.imageUri });
        // Every ECS app built from a Dockerfile: a Fargate service whose image is an asset.
        const vpc = new Vpc(stack, 'Vpc', {
          maxAzs: 1,
          natGateways: 0,
          subnetConfiguration: [{ name: 'public', subnetType: SubnetType.PUBLIC }],
        });
        const task = new FargateTaskDefinition(stack, 'Task');
        task.addContainer('web', { image: ContainerImage.fromAsset(serviceDir) });
        new FargateService(stack, 'Service', {
          cluster: new Cluster(stack, 'Cluster', { vpc }),
          taskDefinition: task,
          assignPublicIp: true,
        });
        // Assets a command produces: an image the command builds itself, and two files made by
        // one command, which is announced once.
        const built = stack.synthesizer.addDockerImageAsset({
          sourceHash: 'e'.repeat(64),
          executable: [
            'sh',
            '-c',
            `podman build --quiet --tag cdkd-exec-image ${execDir} >/dev/null && echo cdkd-exec-image`,
          ],
        });
        new CfnOutput(stack, 'BuiltUri', { value: built.imageUri });
        for (const hash of ['1', '2']) {
          const file = stack.synthesizer.addFileAsset({
            sourceHash: hash.repeat(64),
            executable: ['node', '-e', FILE_COMMAND],
          });
          new CfnOutput(stack, `File${hash}`, { value: file.objectKey });
        }
      });
      ecr = new ECRClient({ region: 'us-east-1' });
      expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
    });
    afterAll(() => ecr?.destroy());

    it('builds and pushes each image (an image asset, an image function, a Fargate service), then a second deploy builds and pushes nothing, and destroy leaves nothing', async () => {
      const first = await runCli(['deploy', '-a', app], { env: env() });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr.match(/Pushed image asset/g)).toHaveLength(4);
      // Each distinct build command is announced once, the shared file command included.
      expect(first.stderr.match(/Running the build command of asset/g)).toHaveLength(2);
      expect(first.stderr).toContain('cdkd-exec-image');
      const fileKey = `${'1'.repeat(64)}`;
      expect(first.stdout).toContain(fileKey);

      const repositories = (await liveResources(sandbox.current.url)).filter(
        (resource) => resource.type === 'AWS::ECR::Repository',
      );
      expect(repositories).toHaveLength(1);
      const repositoryName = repositories[0]!.id.split('/').pop()!;
      expect(repositoryName).toMatch(ACCOUNT_REPOSITORY);
      const images = await ecr.send(new DescribeImagesCommand({ repositoryName }));
      expect(images.imageDetails?.flatMap((image) => image.imageTags ?? [])).toHaveLength(4);
      expect(images.imageDetails?.flatMap((image) => image.imageTags ?? [])).toContain('e'.repeat(64));
      // The output is the URI the CDK wrote, naming the repository and the tag pushed.
      const tags = images.imageDetails!.flatMap((image) => image.imageTags ?? []);
      expect(tags.some((tag) => first.stdout.includes(`${repositoryName}:${tag}`))).toBe(true);

      await fetch(`${sandbox.current.url}/_sandbox/calls`, { method: 'DELETE' });
      const again = await runCli(['deploy', '-a', app], { env: env() });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toContain('Building image asset');
      expect(again.stderr).not.toContain('Pushed image asset');
      expect(again.stderr).not.toContain('Running the build command');
      const made = await calls();
      expect(made['ecr:DescribeImages']?.count).toBe(4);
      expect(made['ecr:GetAuthorizationToken']).toBeUndefined();

      const destroy = await runCli(['destroy', '-a', app, '--yes'], { env: env() });
      expect(destroy.code, destroy.stderr).toBe(0);
      // The image repository is cdkd's asset storage, as the asset bucket is; the stack's own resources are gone.
      const left = (await liveResources(sandbox.current.url)).filter((resource) => !isAssetStorage(resource));
      expect(left).toEqual([]);
      // What stays is the repository and the images pushed to it.
      expect((await liveResources(sandbox.current.url)).map((resource) => resource.type).sort()).toEqual([
        'AWS::ECR::Image',
        'AWS::ECR::Image',
        'AWS::ECR::Image',
        'AWS::ECR::Image',
        'AWS::ECR::Repository',
      ]);
    });
  },
);
