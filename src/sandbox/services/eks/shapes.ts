import { createHash } from 'node:crypto';
import type { ResourceModel } from '../../resources.js';

type Json = Record<string, unknown>;

/** The API's camelCase members as the CloudFormation model's PascalCase ones, and back. */
export function recase(value: unknown, first: (char: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => recase(item, first));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [first(key.charAt(0)) + key.slice(1), recase(inner, first)]),
  );
}
export const toModel = (value: unknown) => recase(value, (char) => char.toUpperCase());
export const toApi = (value: unknown) => recase(value, (char) => char.toLowerCase());

export const tagList = (tags: unknown) =>
  Object.entries((tags ?? {}) as Record<string, string>).map(([Key, Value]) => ({ Key, Value }));
export const tagMap = (tags: unknown) =>
  Object.fromEntries(
    ((tags as Array<{ Key: string; Value: string }>) ?? []).map((tag) => [tag.Key, tag.Value]),
  );

/** A cluster as DescribeCluster answers: ACTIVE at once, with the endpoint and OIDC issuer EKS assigns. */
export function clusterView(model: ResourceModel, region: string, accountId: string): Json {
  const name = String(model.Name);
  const hash = createHash('sha256').update(`${accountId}/${region}/${name}`).digest('hex').toUpperCase();
  const vpc = (toApi(model.ResourcesVpcConfig) ?? {}) as Json;
  return {
    name,
    arn: `arn:aws:eks:${region}:${accountId}:cluster/${name}`,
    createdAt: Number(model.CreatedAt ?? 0) / 1000,
    version: model.Version ?? '1.31',
    endpoint: `https://${hash.slice(0, 32)}.gr7.${region}.eks.amazonaws.com`,
    roleArn: model.RoleArn,
    resourcesVpcConfig: {
      ...vpc,
      clusterSecurityGroupId: `sg-${hash.slice(0, 17).toLowerCase()}`,
      endpointPublicAccess: vpc.endpointPublicAccess ?? true,
      endpointPrivateAccess: vpc.endpointPrivateAccess ?? false,
    },
    kubernetesNetworkConfig: toApi(model.KubernetesNetworkConfig) ?? {
      serviceIpv4Cidr: '172.20.0.0/16',
      ipFamily: 'ipv4',
    },
    logging: toApi(model.Logging) ?? { clusterLogging: [] },
    identity: { oidc: { issuer: `https://oidc.eks.${region}.amazonaws.com/id/${hash.slice(0, 32)}` } },
    status: 'ACTIVE',
    certificateAuthority: {
      data: Buffer.from(`sandbox certificate authority for ${name}`).toString('base64'),
    },
    platformVersion: 'eks.1',
    ...(model.EncryptionConfig !== undefined && { encryptionConfig: toApi(model.EncryptionConfig) }),
    ...(model.AccessConfig !== undefined && { accessConfig: toApi(model.AccessConfig) }),
    tags: tagMap(model.Tags),
  };
}
