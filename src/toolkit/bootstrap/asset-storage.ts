import { publishAssets, type StackAssets } from '../../assets/publish-assets.js';
import { newAssetRun } from '../../assets/asset-run.js';
import { assetEventNote } from './asset-events.js';
import { awsErrorCode, classifyAwsError } from '../../aws/error-class.js';
import { CdkdError, isCdkdError } from '../../errors.js';
import { ensureAssetBucket } from './bootstrap.js';
import { publishingRoles } from './publishing-roles.js';
import type { Session } from '../session/session.js';
import type { StackTarget } from '../stacks/stack-requests.js';
import { note, type ToolkitIo } from '../io.js';

/** Assets built or uploaded at once across the run, without --asset-parallelism. */
const DEFAULT_ASSET_PARALLELISM = 4;

/** Publishes one stack's assets to its region's asset bucket; resolves to the bucket's name. */
export type StackAssetPublisher = (stack: StackAssets, target: StackTarget) => Promise<string>;

/**
 * Asset storage per region: a stack deploying to a region `cdkd bootstrap` never prepared
 * gets that region's asset bucket on first use, made with bootstrap's own settings and
 * announced in one line (once per account and region, however many stacks deploy there at once).
 * Where these credentials may not create it, the deploy stops with ASSET_BUCKET_NOT_FOUND.
 */
export function assetPublisher(
  session: Session,
  io: ToolkitIo,
  options: { concurrency?: number; verbose?: boolean } = {},
): StackAssetPublisher {
  const made = new Map<string, Promise<void>>();
  // One per deploy run: an image several stacks name is built once, a build command announced once.
  const run = newAssetRun(options.concurrency ?? DEFAULT_ASSET_PARALLELISM);
  const onEvent = assetEventNote((line) => note(io, line), options.verbose ?? false);
  const publishingClients = publishingRoles(session, (line) => {
    if (options.verbose) note(io, line);
  });
  const makeBucket = async (account: Session, target: StackTarget, notFound: CdkdError): Promise<void> => {
    const s3For = (region: string) => account.clients.s3(region);
    try {
      const bucket = await ensureAssetBucket(s3For, target.accountId, target.region);
      note(
        io,
        `Created the asset bucket ${bucket.name} in ${bucket.region}, with the settings cdkd bootstrap applies (no bootstrap had prepared this region).`,
      );
    } catch (error) {
      if (classifyAwsError(error) !== 'access-denied') throw error;
      throw new CdkdError(
        'ASSET_BUCKET_NOT_FOUND',
        `${notFound.message} cdkd may not create it with these credentials (${awsErrorCode(error) ?? 'access denied'}).`,
        { ...(notFound.hint ? { hint: notFound.hint } : {}), cause: error },
      );
    }
  };
  return async (stack, target) => {
    // A stack in another account publishes to that account's bucket, through its deploy role or
    const account = await session.forAccount(target);
    // There, through the role its asset manifests name where that role can be used.
    const clients =
      account === session
        ? { files: account.clients, images: account.clients }
        : await publishingClients(stack, target, account);
    const input = {
      stacks: [stack],
      accountId: target.accountId,
      region: target.region,
      s3: await clients.files.s3(target.region),
      // Loaded only for a stack with an image asset.
      ecr: async () => clients.images.client((await import('@aws-sdk/client-ecr')).ECRClient, target.region),
      run,
      onEvent,
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    };
    try {
      return (await publishAssets(input)).bucket;
    } catch (error) {
      if (!isCdkdError(error) || error.code !== 'ASSET_BUCKET_NOT_FOUND') throw error;
      const key = `${target.accountId}/${target.region}`;
      let making = made.get(key);
      if (!making) {
        making = makeBucket(account, target, error);
        made.set(key, making);
      }
      await making;
      return (await publishAssets(input)).bucket;
    }
  };
}
