import {
  CreateResourceCommand,
  GetResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import {
  CreateRepositoryCommand,
  DeleteLifecyclePolicyCommand,
  DeleteRepositoryCommand,
  DeleteRepositoryPolicyCommand,
  DescribeRepositoriesCommand,
  ECRClient,
  GetLifecyclePolicyCommand,
  GetRepositoryPolicyCommand,
  ListTagsForResourceCommand,
  PutLifecyclePolicyCommand,
  SetRepositoryPolicyCommand,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-ecr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, settle } from './helpers.js';

let sandbox: Sandbox;
let ecr: ECRClient;
let cc: CloudControlClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  ecr = new ECRClient({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
  cc = cloudControlClient(sandbox);
});
afterAll(async () => {
  ecr.destroy();
  cc.destroy();
  await sandbox.stop();
});

const policy = JSON.stringify({
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::111111111111:root' }, Action: 'ecr:BatchGetImage' },
  ],
});
const lifecycle = JSON.stringify({
  rules: [
    {
      rulePriority: 1,
      selection: { tagStatus: 'untagged', countType: 'imageCountMoreThan', countNumber: 5 },
      action: { type: 'expire' },
    },
  ],
});

describe('ECR repositories in the sandbox', () => {
  it('creates, describes and deletes a repository in the shape ECR gives, refusing duplicates and unknown names', async () => {
    const created = await ecr.send(
      new CreateRepositoryCommand({ repositoryName: 'app/web', tags: [{ Key: 'team', Value: 'a' }] }),
    );
    expect(created.repository).toMatchObject({
      repositoryName: 'app/web',
      registryId: '000000000000',
      repositoryArn: 'arn:aws:ecr:us-east-1:000000000000:repository/app/web',
      repositoryUri: '000000000000.dkr.ecr.us-east-1.amazonaws.com/app/web',
      imageTagMutability: 'MUTABLE',
    });
    expect(created.repository!.createdAt).toBeInstanceOf(Date);
    const again = await failure(ecr.send(new CreateRepositoryCommand({ repositoryName: 'app/web' })));
    expect(again).toMatchObject({ name: 'RepositoryAlreadyExistsException', status: 400 });
    const bad = await failure(ecr.send(new CreateRepositoryCommand({ repositoryName: 'Upper' })));
    expect(bad.name).toBe('InvalidParameterException');

    const described = await ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['app/web'] }));
    expect(described.repositories!.map((repository) => repository.repositoryName)).toEqual(['app/web']);
    const missing = await failure(ecr.send(new DescribeRepositoriesCommand({ repositoryNames: ['nope'] })));
    expect(missing.name).toBe('RepositoryNotFoundException');
    expect(missing.error.message).toBe(
      "The repository with name 'nope' does not exist in the registry with id '000000000000'",
    );

    await ecr.send(new DeleteRepositoryCommand({ repositoryName: 'app/web' }));
    expect((await ecr.send(new DescribeRepositoriesCommand({}))).repositories).toEqual([]);
  });

  it('sets, reads and deletes the repository policy and the lifecycle policy', async () => {
    await ecr.send(new CreateRepositoryCommand({ repositoryName: 'policies' }));
    expect(
      (await failure(ecr.send(new GetRepositoryPolicyCommand({ repositoryName: 'policies' })))).name,
    ).toBe('RepositoryPolicyNotFoundException');
    await ecr.send(new SetRepositoryPolicyCommand({ repositoryName: 'policies', policyText: policy }));
    expect(
      JSON.parse(
        (await ecr.send(new GetRepositoryPolicyCommand({ repositoryName: 'policies' }))).policyText!,
      ),
    ).toEqual(JSON.parse(policy));
    await ecr.send(new DeleteRepositoryPolicyCommand({ repositoryName: 'policies' }));
    expect(
      (await failure(ecr.send(new DeleteRepositoryPolicyCommand({ repositoryName: 'policies' })))).name,
    ).toBe('RepositoryPolicyNotFoundException');

    expect(
      (await failure(ecr.send(new GetLifecyclePolicyCommand({ repositoryName: 'policies' })))).name,
    ).toBe('LifecyclePolicyNotFoundException');
    await ecr.send(
      new PutLifecyclePolicyCommand({ repositoryName: 'policies', lifecyclePolicyText: lifecycle }),
    );
    expect(
      (await ecr.send(new GetLifecyclePolicyCommand({ repositoryName: 'policies' }))).lifecyclePolicyText,
    ).toBe(lifecycle);
    await ecr.send(new DeleteLifecyclePolicyCommand({ repositoryName: 'policies' }));
    expect(
      (await failure(ecr.send(new GetLifecyclePolicyCommand({ repositoryName: 'policies' })))).name,
    ).toBe('LifecyclePolicyNotFoundException');
  });

  it('tags and untags by ARN', async () => {
    const arn = (await ecr.send(new CreateRepositoryCommand({ repositoryName: 'tagged' }))).repository!
      .repositoryArn!;
    await ecr.send(
      new TagResourceCommand({
        resourceArn: arn,
        tags: [
          { Key: 'a', Value: '1' },
          { Key: 'b', Value: '2' },
        ],
      }),
    );
    await ecr.send(new TagResourceCommand({ resourceArn: arn, tags: [{ Key: 'a', Value: '3' }] }));
    await ecr.send(new UntagResourceCommand({ resourceArn: arn, tagKeys: ['b'] }));
    expect((await ecr.send(new ListTagsForResourceCommand({ resourceArn: arn }))).tags).toEqual([
      { Key: 'a', Value: '3' },
    ]);
  });

  it('is one store with Cloud Control: a stack-made repository is one ECR describes, and its policy the model', async () => {
    const accepted = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::ECR::Repository',
        DesiredState: JSON.stringify({ ImageScanningConfiguration: { ScanOnPush: true } }),
      }),
    );
    const { event } = await settle(cc, accepted.ProgressEvent!);
    const name = event.Identifier!;
    expect(name).toMatch(/^repository-[a-z0-9]{12}$/);
    const described = (await ecr.send(new DescribeRepositoriesCommand({ repositoryNames: [name] })))
      .repositories![0]!;
    expect(described.imageScanningConfiguration).toEqual({ scanOnPush: true });
    await ecr.send(new SetRepositoryPolicyCommand({ repositoryName: name, policyText: policy }));
    const model = JSON.parse(
      (await cc.send(new GetResourceCommand({ TypeName: 'AWS::ECR::Repository', Identifier: name })))
        .ResourceDescription!.Properties!,
    );
    expect(JSON.parse(model.RepositoryPolicyText)).toEqual(JSON.parse(policy));
  });
});
