import { optionalString, requiredString } from '../../protocols/json.js';
import type { ResourceModel } from '../../resources.js';
import { ecrErrors } from './ecr-errors.js';
import type { ImageStore } from './images/image-store.js';
import type { Uploads } from './images/uploads.js';
import type { RegistryTokens } from './registry/tokens.js';
import type { Repositories } from './repositories.js';

type Input = Record<string, unknown>;

export interface EcrCall {
  repositories: Repositories;
  images: ImageStore;
  uploads: Uploads;
  tokens: RegistryTokens;
  region: string;
  /** The request's account (`SandboxRequest.accountId`). */
  accountId: string;
  input: Input;
}

type Tag = { Key: string; Value: string };

export async function createRepository({ repositories, region, input }: EcrCall): Promise<unknown> {
  const scanning = input.imageScanningConfiguration as { scanOnPush?: boolean } | undefined;
  const encryption = input.encryptionConfiguration as
    { encryptionType?: string; kmsKey?: string } | undefined;
  const model = await repositories.create(region, {
    RepositoryName: requiredString(input, 'repositoryName', 'InvalidParameterException'),
    ...(optionalString(input, 'imageTagMutability') ? { ImageTagMutability: input.imageTagMutability } : {}),
    ...(scanning ? { ImageScanningConfiguration: { ScanOnPush: scanning.scanOnPush === true } } : {}),
    ...(encryption
      ? {
          EncryptionConfiguration: {
            EncryptionType: encryption.encryptionType ?? 'AES256',
            ...(encryption.kmsKey ? { KmsKey: encryption.kmsKey } : {}),
          },
        }
      : {}),
    ...(Array.isArray(input.tags) && input.tags.length > 0 ? { Tags: input.tags as Tag[] } : {}),
  });
  return { repository: repositories.view(model) };
}

const PAGE = 100;

export async function describeRepositories({ repositories, region, input }: EcrCall): Promise<unknown> {
  const names = Array.isArray(input.repositoryNames) ? (input.repositoryNames as string[]) : undefined;
  const models = names
    ? names.map((name) => repositories.get(region, name))
    : repositories
        .list(region)
        .sort((a, b) => String(a.RepositoryName).localeCompare(String(b.RepositoryName)));
  const size = typeof input.maxResults === 'number' ? input.maxResults : PAGE;
  const start =
    typeof input.nextToken === 'string' ? Number(Buffer.from(input.nextToken, 'base64url').toString()) : 0;
  const page = models.slice(start, start + size);
  const end = start + page.length;
  return {
    repositories: page.map((model) => repositories.view(model)),
    ...(end < models.length ? { nextToken: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}

/** The repository a call names, which must exist. */
export function namedRepository({ repositories, region, input }: EcrCall): string {
  const name = requiredString(input, 'repositoryName', 'InvalidParameterException');
  repositories.get(region, name);
  return name;
}

/** A repository holding images is deleted only with `force`, which deletes the images too. */
export async function deleteRepository({ repositories, region, input }: EcrCall): Promise<unknown> {
  const model = await repositories.delete(
    region,
    requiredString(input, 'repositoryName', 'InvalidParameterException'),
    input.force === true,
  );
  return { repository: repositories.view(model) };
}

/** The policy as text: Cloud Control models may hold it as an object. */
function policyText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export async function getRepositoryPolicy({ repositories, region, input }: EcrCall): Promise<unknown> {
  const name = requiredString(input, 'repositoryName', 'InvalidParameterException');
  const model = repositories.get(region, name);
  if (model.RepositoryPolicyText === undefined) throw ecrErrors.policyNotFound(name, repositories.registryId);
  return {
    registryId: repositories.registryId,
    repositoryName: name,
    policyText: policyText(model.RepositoryPolicyText),
  };
}

export async function setRepositoryPolicy({ repositories, region, input }: EcrCall): Promise<unknown> {
  const name = requiredString(input, 'repositoryName', 'InvalidParameterException');
  const text = requiredString(input, 'policyText', 'InvalidParameterException');
  try {
    JSON.parse(text);
  } catch {
    throw ecrErrors.invalidParameter(
      `Invalid parameter at 'PolicyText' failed to satisfy constraint: 'Invalid repository policy provided'`,
    );
  }
  await repositories.update(region, name, (model) => {
    model.RepositoryPolicyText = text;
  });
  return { registryId: repositories.registryId, repositoryName: name, policyText: text };
}

export async function deleteRepositoryPolicy(call: EcrCall): Promise<unknown> {
  const result = (await getRepositoryPolicy(call)) as { repositoryName: string };
  await call.repositories.update(call.region, result.repositoryName, (model) => {
    delete model.RepositoryPolicyText;
  });
  return result;
}

function lifecycleText(model: ResourceModel): string | undefined {
  return (model.LifecyclePolicy as { LifecyclePolicyText?: string } | undefined)?.LifecyclePolicyText;
}

export async function putLifecyclePolicy({ repositories, region, input }: EcrCall): Promise<unknown> {
  const name = requiredString(input, 'repositoryName', 'InvalidParameterException');
  const text = requiredString(input, 'lifecyclePolicyText', 'InvalidParameterException');
  try {
    JSON.parse(text);
  } catch {
    throw ecrErrors.invalidParameter(
      `Invalid parameter at 'LifecyclePolicyText' failed to satisfy constraint: 'Lifecycle policy validation failure'`,
    );
  }
  await repositories.update(region, name, (model) => {
    model.LifecyclePolicy = { LifecyclePolicyText: text, RegistryId: repositories.registryId };
  });
  return { registryId: repositories.registryId, repositoryName: name, lifecyclePolicyText: text };
}

export async function getLifecyclePolicy({ repositories, region, input }: EcrCall): Promise<unknown> {
  const name = requiredString(input, 'repositoryName', 'InvalidParameterException');
  const text = lifecycleText(repositories.get(region, name));
  if (text === undefined) throw ecrErrors.lifecycleNotFound(name, repositories.registryId);
  return { registryId: repositories.registryId, repositoryName: name, lifecyclePolicyText: text };
}

export async function deleteLifecyclePolicy(call: EcrCall): Promise<unknown> {
  const result = (await getLifecyclePolicy(call)) as { repositoryName: string };
  await call.repositories.update(call.region, result.repositoryName, (model) => {
    delete model.LifecyclePolicy;
  });
  return result;
}

export async function listTagsForResource({ repositories, region, input }: EcrCall): Promise<unknown> {
  const model = repositories.byArn(region, requiredString(input, 'resourceArn', 'InvalidParameterException'));
  return { tags: (model.Tags as Tag[] | undefined) ?? [] };
}

export async function tagResource({ repositories, region, input }: EcrCall): Promise<unknown> {
  const model = repositories.byArn(region, requiredString(input, 'resourceArn', 'InvalidParameterException'));
  const added = Array.isArray(input.tags) ? (input.tags as Tag[]) : [];
  await repositories.update(region, String(model.RepositoryName), (desired) => {
    const kept = ((desired.Tags as Tag[] | undefined) ?? []).filter(
      (tag) => !added.some((next) => next.Key === tag.Key),
    );
    desired.Tags = [...kept, ...added];
  });
  return {};
}

export async function untagResource({ repositories, region, input }: EcrCall): Promise<unknown> {
  const model = repositories.byArn(region, requiredString(input, 'resourceArn', 'InvalidParameterException'));
  const removed = Array.isArray(input.tagKeys) ? (input.tagKeys as string[]) : [];
  await repositories.update(region, String(model.RepositoryName), (desired) => {
    const kept = ((desired.Tags as Tag[] | undefined) ?? []).filter((tag) => !removed.includes(tag.Key));
    if (kept.length > 0) desired.Tags = kept;
    else delete desired.Tags;
  });
  return {};
}
