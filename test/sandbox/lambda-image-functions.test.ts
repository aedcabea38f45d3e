import { CreateResourceCommand } from '@aws-sdk/client-cloudcontrol';
import { CreateRepositoryCommand, type ECRClient } from '@aws-sdk/client-ecr';
import {
  CreateFunctionCommand,
  GetFunctionCommand,
  GetFunctionConfigurationCommand,
  UpdateFunctionConfigurationCommand,
  UpdateFunctionCodeCommand,
  type CreateFunctionCommandInput,
  type LambdaClient,
} from '@aws-sdk/client-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, lambdaClient, settle } from './helpers.js';
import {
  digestOf,
  indexOf,
  pushImage,
  registryCall,
  scratchImage,
  startRegistrySandbox,
} from './registry-helpers.js';

let sandbox: Sandbox;
let ecr: ECRClient;
let lambda: LambdaClient;
let auth: string;
const REGISTRY = '000000000000.dkr.ecr.us-east-1.amazonaws.com';

beforeAll(async () => {
  ({ sandbox, ecr, auth } = await startRegistrySandbox());
  lambda = lambdaClient(sandbox);
  await ecr.send(new CreateRepositoryCommand({ repositoryName: 'fns/app' }));
});
afterAll(async () => {
  ecr.destroy();
  lambda.destroy();
  await sandbox.stop();
});

function imageFunction(
  FunctionName: string,
  ImageUri: string,
  extra: Partial<CreateFunctionCommandInput> = {},
) {
  return lambda.send(
    new CreateFunctionCommand({
      FunctionName,
      Role: 'arn:aws:iam::000000000000:role/exec',
      PackageType: 'Image',
      Code: { ImageUri },
      ...extra,
    }),
  );
}

describe('PackageType Image functions in the sandbox', () => {
  it('deploys an image the registry holds, pinned to the digest its tag named then', async () => {
    const image = scratchImage({ bootstrap: 'v1' });
    const digest = await pushImage(sandbox, auth, 'fns/app', image, 'v1');
    const created = await imageFunction('image-fn', `${REGISTRY}/fns/app:v1`);
    expect(created).toMatchObject({ PackageType: 'Image', CodeSha256: digest.slice('sha256:'.length) });
    expect(created.Runtime).toBeUndefined();

    await pushImage(sandbox, auth, 'fns/app', scratchImage({ bootstrap: 'v2' }), 'v1');
    const got = await lambda.send(new GetFunctionCommand({ FunctionName: 'image-fn' }));
    expect(got.Code).toEqual({
      RepositoryType: 'ECR',
      ImageUri: `${REGISTRY}/fns/app:v1`,
      ResolvedImageUri: `${REGISTRY}/fns/app@${digest}`,
    });
    expect(got.Configuration!.PackageType).toBe('Image');
  });

  it("refuses an ImageUri the registry does not hold, or that is no ECR image URI, with Lambda's error", async () => {
    for (const uri of [
      `${REGISTRY}/fns/app:never-pushed`,
      `${REGISTRY}/fns/missing:v1`,
      `${REGISTRY}/fns/app@sha256:${'a'.repeat(64)}`,
    ]) {
      const refused = await failure(imageFunction('absent-fn', uri));
      expect(refused).toMatchObject({ name: 'InvalidParameterValueException', status: 400 });
      expect(refused.error.message).toBe(`Source image ${uri} does not exist. Provide a valid source image.`);
    }
    const invalid = await failure(imageFunction('absent-fn', 'fns/app:v1'));
    expect(invalid.error.message).toBe('Source image fns/app:v1 is not valid. Provide a valid source image.');
    const untagged = await failure(imageFunction('absent-fn', `${REGISTRY}/fns/app`));
    expect(untagged.name).toBe('InvalidParameterValueException');
    expect((await failure(lambda.send(new GetFunctionCommand({ FunctionName: 'absent-fn' })))).name).toBe(
      'ResourceNotFoundException',
    );
  });

  it('refuses code that does not match the package type', async () => {
    await pushImage(sandbox, auth, 'fns/app', scratchImage({ bootstrap: 'p' }), 'pt');
    const noImage = await failure(
      lambda.send(
        new CreateFunctionCommand({
          FunctionName: 'pt-fn',
          Role: 'arn:aws:iam::000000000000:role/exec',
          PackageType: 'Image',
          Code: { ZipFile: new Uint8Array(Buffer.from('PK')) },
        }),
      ),
    );
    expect(noImage.error.message).toBe(
      'Please provide ImageUri when creating a function with packageType Image.',
    );
    const zipWithImage = await failure(
      imageFunction('pt-fn', `${REGISTRY}/fns/app:pt`, { PackageType: 'Zip' }),
    );
    expect(zipWithImage.name).toBe('InvalidParameterValueException');
    const withRuntime = await failure(
      imageFunction('pt-fn', `${REGISTRY}/fns/app:pt`, { Runtime: 'nodejs20.x', Handler: 'index.handler' }),
    );
    expect(withRuntime.name).toBe('InvalidParameterValueException');
  });

  it("resolves an index to the function's architecture, and refuses one without it", async () => {
    const arm = scratchImage({ bootstrap: 'arm' }, { architecture: 'arm64' });
    await pushImage(sandbox, auth, 'fns/app', arm, digestOf(arm.manifest));
    const index = indexOf([{ image: arm, architecture: 'arm64' }]);
    const put = await registryCall(sandbox, 'PUT', '/v2/fns/app/manifests/multi', {
      authorization: auth,
      body: index,
      headers: { 'content-type': 'application/vnd.oci.image.index.v1+json' },
    });
    expect(put.status).toBe(201);
    const created = await imageFunction('arm-fn', `${REGISTRY}/fns/app:multi`, { Architectures: ['arm64'] });
    expect(created.CodeSha256).toBe(digestOf(index).slice('sha256:'.length));
    const x86 = await failure(imageFunction('x86-fn', `${REGISTRY}/fns/app:multi`));
    expect(x86.error.message).toContain('does not exist');
  });

  it('updates an image function to another image, and only with an ImageUri', async () => {
    const next = scratchImage({ bootstrap: 'next' });
    const digest = await pushImage(sandbox, auth, 'fns/app', next, 'next');
    await imageFunction('update-fn', `${REGISTRY}/fns/app:next`);
    const noUri = await failure(
      lambda.send(
        new UpdateFunctionCodeCommand({
          FunctionName: 'update-fn',
          ZipFile: new Uint8Array(Buffer.from('PK')),
        }),
      ),
    );
    expect(noUri.error.message).toBe(
      'Please provide ImageUri when updating a function with packageType Image.',
    );
    const missing = await failure(
      lambda.send(
        new UpdateFunctionCodeCommand({ FunctionName: 'update-fn', ImageUri: `${REGISTRY}/fns/app:nope` }),
      ),
    );
    expect(missing.error.message).toContain('does not exist');
    const updated = await lambda.send(
      new UpdateFunctionCodeCommand({ FunctionName: 'update-fn', ImageUri: `${REGISTRY}/fns/app@${digest}` }),
    );
    expect(updated.CodeSha256).toBe(digest.slice('sha256:'.length));
  });

  it('keeps ImageConfig, returns it as ImageConfigResponse, and clears it when sent empty', async () => {
    await pushImage(sandbox, auth, 'fns/app', scratchImage({ bootstrap: 'ic' }), 'ic');
    const ImageConfig = { EntryPoint: ['/rt'], Command: ['handler.main'], WorkingDirectory: '/srv' };
    const created = await imageFunction('ic-fn', `${REGISTRY}/fns/app:ic`, { ImageConfig });
    expect(created.ImageConfigResponse).toEqual({ ImageConfig });
    const got = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'ic-fn' }));
    expect(got.ImageConfigResponse).toEqual({ ImageConfig });
    const cleared = await lambda.send(
      new UpdateFunctionConfigurationCommand({ FunctionName: 'ic-fn', ImageConfig: {} }),
    );
    expect(cleared.ImageConfigResponse).toBeUndefined();
  });

  it('deploys through Cloud Control as a stack does, failing the request for an image that is not there', async () => {
    const cc = cloudControlClient(sandbox);
    const digest = await pushImage(sandbox, auth, 'fns/app', scratchImage({ bootstrap: 'cc' }), 'cc');
    const desired = (tag: string) =>
      JSON.stringify({
        FunctionName: `cc-${tag}`,
        Role: 'arn:aws:iam::000000000000:role/exec',
        PackageType: 'Image',
        Code: { ImageUri: `${REGISTRY}/fns/app:${tag}` },
      });
    const TypeName = 'AWS::Lambda::Function';
    const made = await settle(
      cc,
      (await cc.send(new CreateResourceCommand({ TypeName, DesiredState: desired('cc') }))).ProgressEvent!,
    );
    expect(made.event.OperationStatus).toBe('SUCCESS');
    const got = await lambda.send(new GetFunctionCommand({ FunctionName: 'cc-cc' }));
    expect(got.Code!.ResolvedImageUri).toBe(`${REGISTRY}/fns/app@${digest}`);
    const refused = await settle(
      cc,
      (await cc.send(new CreateResourceCommand({ TypeName, DesiredState: desired('gone') }))).ProgressEvent!,
    );
    expect(refused.event).toMatchObject({ OperationStatus: 'FAILED', ErrorCode: 'InvalidRequest' });
    expect(refused.event.StatusMessage).toContain('does not exist. Provide a valid source image.');
    cc.destroy();
  });
});
