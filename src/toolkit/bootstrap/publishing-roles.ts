import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import type { FileDestination, ImageDestination } from '../../assembly/index.js';
import { resolvePlaceholders } from '../../assets/container/image-destination.js';
import type { StackAssets } from '../../assets/index.js';
import type { AwsClients } from '../../aws/index.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { assetBucketName } from '../../state/bucket-names.js';
import type { Session } from '../session/session.js';
import type { StackTarget } from '../stacks/stack-requests.js';

/** The clients a stack's file and image assets are published with. */
export interface PublishingClients {
  files: AwsClients;
  images: AwsClients;
}

type Kind = 'file' | 'image';

/** AWS's partition of a region, for an ARN's `${AWS::Partition}`. */
export function partitionOf(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

/**
 * The role the asset manifests name for a stack's `kind` assets (the CDK writes the bootstrap's
 * file- and image-publishing roles, with placeholders), resolved for the target, when it is a
 * role of the target account; a role elsewhere is not one cdkd publishes there through.
 */
export function manifestPublishingRole(
  stack: StackAssets,
  kind: Kind,
  target: StackTarget,
): { roleArn: string; externalId?: string } | undefined {
  const destinations = stack.assetManifests.flatMap((manifest): Array<FileDestination | ImageDestination> =>
    kind === 'file'
      ? manifest.files
          .filter((file) => file.absoluteSourcePath !== stack.templateFile)
          .flatMap((file) => file.destinations)
      : manifest.containers.flatMap((image) => image.destinations),
  );
  const named = destinations.find((destination) => destination.assumeRoleArn !== undefined);
  if (!named?.assumeRoleArn) return undefined;
  const roleArn = resolvePlaceholders(named.assumeRoleArn, {
    ...target,
    partition: partitionOf(target.region),
  });
  if (roleArn.split(':')[4] !== target.accountId) return undefined;
  return {
    roleArn,
    ...(named.assumeRoleExternalId ? { externalId: named.assumeRoleExternalId } : {}),
  };
}

/**
 * For a stack in another account: its assets are published through the role its asset
 * manifests name when that role can be assumed from the caller's credentials (and, for files,
 * reaches cdkd's asset bucket, which the CDK's file-publishing role's own policy may not allow),
 * else through cdkd's deploy role there. Each role is tried once per run; `report` says which
 * was used and why (the CLI shows it under --verbose).
 */
export function publishingRoles(
  session: Session,
  report: (line: string) => void,
): (stack: StackAssets, target: StackTarget, account: Session) => Promise<PublishingClients> {
  const tried = new Map<string, Promise<AwsClients | string>>();
  const attempt = (kind: Kind, role: { roleArn: string; externalId?: string }, target: StackTarget) => {
    const key = `${kind} ${role.roleArn}`;
    let result = tried.get(key);
    if (!result) {
      result = usable(session, kind, role, target);
      tried.set(key, result);
    }
    return result;
  };
  const choose = async (stack: StackAssets, kind: Kind, target: StackTarget, account: Session) => {
    const role = manifestPublishingRole(stack, kind, target);
    if (!role) return account.clients;
    const outcome = await attempt(kind, role, target);
    const deployRole = account.options.roleArn ?? 'the deploy role';
    if (typeof outcome === 'string') {
      report(
        `${stack.displayName}: ${kind} assets published through ${deployRole}: the asset manifest's ${role.roleArn} ${outcome}.`,
      );
      return account.clients;
    }
    report(`${stack.displayName}: ${kind} assets published through the asset manifest's ${role.roleArn}.`);
    return outcome;
  };
  return async (stack, target, account) => {
    const hasImages = stack.assetManifests.some((manifest) => manifest.containers.length > 0);
    return {
      files: await choose(stack, 'file', target, account),
      images: hasImages ? await choose(stack, 'image', target, account) : account.clients,
    };
  };
}

/** The role's clients, or why they are not used. */
async function usable(
  session: Session,
  kind: Kind,
  role: { roleArn: string; externalId?: string },
  target: StackTarget,
): Promise<AwsClients | string> {
  const clients = session.clients.assumingRole({
    roleArn: role.roleArn,
    sessionName: 'cdkd-publishing',
    ...(role.externalId ? { externalId: role.externalId } : {}),
  });
  try {
    await (await clients.sts()).send(new GetCallerIdentityCommand({}));
  } catch (error) {
    return `could not be assumed (${awsErrorCode(error) ?? (error as Error).message})`;
  }
  if (kind === 'image') return clients;
  const bucket = assetBucketName(target.accountId, target.region);
  try {
    await (await clients.s3(target.region)).send(new HeadBucketCommand({ Bucket: bucket }));
    return clients;
  } catch (error) {
    return `does not reach ${bucket} (${awsErrorCode(error) ?? (error as Error).message})`;
  }
}
