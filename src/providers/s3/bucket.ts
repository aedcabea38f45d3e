import {
  CreateBucketCommand,
  DeleteBucketCommand,
  HeadBucketCommand,
  ListBucketsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { deleteTreatingNotFoundAsGone } from '../delete-gone.js';
import { awsErrorCode, httpStatusOf } from '../../aws/error-class.js';
import { CdkdError } from '../../errors.js';

import { generatePhysicalName, nameFromToken, nameRandom } from '../physical-names.js';
import type {
  CreateResult,
  CreationIdentity,
  DeleteRequest,
  JsonObject,
  LiveResource,
  ProviderContext,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
  LocateAnswer,
  NameLookup,
} from '../provider.js';
import { MadeByAttempts, sameIdentity } from '../resource-made.js';
import { BUCKET_CONFIGS, unmappedConfigurations } from './bucket-configs.js';
import { bucketAttributesOf } from './ref-attributes.js';
import { SdkProvider, type ProviderDescription } from '../skeleton.js';

export const BUCKET_TYPE = 'AWS::S3::Bucket';

const COVERED = ['BucketName', ...BUCKET_CONFIGS.map((config) => config.property)];

/** A CloudFormation-style bucket name: lower case, letters, digits and `-`, at most 63. */
export function generatedBucketName(
  stackName: string,
  logicalId: string,
  random?: (alphabetSize: number) => number,
): string {
  return generatePhysicalName(stackName, logicalId, { maxLength: 63, lowerCase: true }, random);
}

async function s3(context: ProviderContext): Promise<S3Client> {
  return context.clients.s3(context.region);
}

const isMissingBucket = (error: unknown): boolean =>
  awsErrorCode(error) === 'NoSuchBucket' || awsErrorCode(error) === 'NotFound' || httpStatusOf(error) === 404;

/** Name, region and creation date of a bucket this account owns, from ListBuckets. */
async function ownedBucket(client: S3Client, name: string): Promise<CreationIdentity | undefined> {
  const { Buckets = [] } = await client.send(new ListBucketsCommand({ Prefix: name }));
  const bucket = Buckets.find((b) => b.Name === name);
  if (!bucket) return undefined;
  return {
    BucketName: name,
    Region: bucket.BucketRegion ?? '',
    CreationDate: bucket.CreationDate?.toISOString() ?? '',
  };
}

/** Whether any bucket holds the name: HeadBucket answers 403 for another account's. */
async function nameTaken(client: S3Client, name: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: name }));
    return true;
  } catch (error) {
    if (isMissingBucket(error)) return false;
    if (httpStatusOf(error) === 403 || httpStatusOf(error) === 301) return true;
    throw error;
  }
}

/**
 * AWS::S3::Bucket through CreateBucket and the bucket configuration APIs. An explicit
 * BucketName already held is refused (NAMED_CREATE_COLLISION), except the bucket an
 * earlier attempt of the same create made and could not remove, while its name, region
 * and creation date are unchanged; BucketAlreadyOwnedByYou for a generated name is that
 * earlier attempt's bucket, adopted (spec 002, "Creates that adopt a taken name").
 */
export class BucketProvider extends SdkProvider {
  readonly description: ProviderDescription = {
    type: BUCKET_TYPE,
    covered: COVERED,
    alsoUncovered: unmappedConfigurations,
  };
  /** Per idempotency token, the bucket an attempt made that is still there. */
  private readonly madeBy = new MadeByAttempts();

  async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const explicit = typeof request.properties.BucketName === 'string';
    const name = explicit
      ? String(request.properties.BucketName)
      : generatedBucketName(context.stackName, request.logicalId, nameRandom(request.idempotencyToken));
    const client = await s3(context);
    const token = request.idempotencyToken;
    const earlier = this.madeBy.get(token);
    let identity: CreationIdentity | undefined;
    // The engine's lookup just found the name free; only a retry looks again, for its own bucket.
    const lookUp = explicit && (earlier !== undefined || request.nameFree !== true);
    if (lookUp && (await nameTaken(client, name))) {
      const owned = await ownedBucket(client, name);
      // Taken back while its identity is unchanged (or, unread by that attempt, while this account owns it).
      if (!earlier || !owned || !sameIdentity(earlier.creationIdentity, owned)) {
        throw collision(name, request.logicalId);
      }
      identity = owned;
    } else {
      await this.createBucket(client, name, explicit, request.logicalId, context);
    }
    // From here the bucket exists, made by this create (or an earlier attempt of it).
    try {
      identity ??= await this.identityOf(client, name, context);
      this.madeBy.remember(token, { physicalId: name, creationIdentity: identity });
      for (const config of BUCKET_CONFIGS) {
        const value = request.properties[config.property];
        if (value !== undefined) await config.put(client, name, value);
      }
    } catch (error) {
      if (await this.removeFailed(client, name, token)) throw error;
      throw this.madeBy.failed(token, { physicalId: name, creationIdentity: identity }, error);
    }
    this.madeBy.forget(token);
    return {
      physicalId: name,
      attributes: bucketAttributesOf(name, context.region),
      creationIdentity: identity,
      // The listing that proved the bucket ours names it; the Put* calls answer nothing.
      observed: { BucketName: String(identity.BucketName ?? name) },
    };
  }

  /** The bucket a create with this token made: its generated name derives from the token. */
  async locate(request: ResourceRequest, context: ProviderContext): Promise<LocateAnswer> {
    if (!nameFromToken(request.properties.BucketName, request)) return 'unknown';
    const name = generatedBucketName(
      context.stackName,
      request.logicalId,
      nameRandom(request.idempotencyToken),
    );
    return (await ownedBucket(await s3(context), name)) ? { physicalId: name } : 'none';
  }

  /** HeadBucket also finds a bucket another account owns and lets this one see. */
  async nameHolder(request: ResourceRequest, context: ProviderContext): Promise<NameLookup | undefined> {
    if (typeof request.properties.BucketName !== 'string') return undefined;
    const name = request.properties.BucketName;
    return (await nameTaken(await s3(context), name)) ? { name, holder: name } : { name };
  }

  private async createBucket(
    client: S3Client,
    name: string,
    explicit: boolean,
    logicalId: string,
    context: ProviderContext,
  ): Promise<void> {
    try {
      await client.send(
        new CreateBucketCommand({
          Bucket: name,
          ...(context.region === 'us-east-1'
            ? {}
            : { CreateBucketConfiguration: { LocationConstraint: context.region as never } }),
        }),
        { abortSignal: context.signal },
      );
    } catch (error) {
      const code = awsErrorCode(error);
      if (code === 'BucketAlreadyOwnedByYou' && !explicit) {
        // An earlier attempt of this create made it; nobody else picks a generated name.
      } else if (code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists') {
        throw collision(name, logicalId);
      } else {
        throw error;
      }
    }
  }

  private async identityOf(
    client: S3Client,
    name: string,
    context: ProviderContext,
  ): Promise<CreationIdentity> {
    const identity = await ownedBucket(client, name);
    return identity ?? { BucketName: name, Region: context.region, CreationDate: '' };
  }

  /**
   * A create that failed after CreateBucket removes the bucket and says whether it could;
   * one it cannot remove stays remembered, so the retry of this create takes it back.
   */
  private async removeFailed(client: S3Client, name: string, token: string | undefined): Promise<boolean> {
    try {
      await client.send(new DeleteBucketCommand({ Bucket: name }));
    } catch {
      return false;
    }
    this.madeBy.forget(token);
    return true;
  }

  async update(request: UpdateRequest, context: ProviderContext): Promise<UpdateResult> {
    const client = await s3(context);
    const name = request.physicalId;
    for (const config of BUCKET_CONFIGS) {
      const before = request.previousProperties[config.property];
      const after = request.properties[config.property];
      if (JSON.stringify(before) === JSON.stringify(after)) continue;
      if (after === undefined) await config.remove(client, name);
      else await config.put(client, name, after);
    }
    // The Put*/Delete* configuration calls answer nothing to observe.
    return { physicalId: name, attributes: bucketAttributesOf(name, context.region) };
  }

  /** A bucket that still holds objects fails with S3's BucketNotEmpty, as on AWS. */
  async delete(request: DeleteRequest, context: ProviderContext): Promise<void> {
    const client = await s3(context);
    await deleteTreatingNotFoundAsGone(
      () =>
        client.send(new DeleteBucketCommand({ Bucket: request.physicalId }), {
          abortSignal: context.signal,
        }),
      isMissingBucket,
    );
  }

  async read(request: DeleteRequest, context: ProviderContext): Promise<LiveResource | undefined> {
    const client = await s3(context);
    const name = request.physicalId;
    try {
      await client.send(new HeadBucketCommand({ Bucket: name }));
    } catch (error) {
      if (isMissingBucket(error)) return undefined;
      throw error;
    }
    const properties: JsonObject = { BucketName: name };
    for (const config of BUCKET_CONFIGS) {
      const value = await config.read(client, name);
      if (value !== undefined) properties[config.property] = value;
    }
    const identity = await ownedBucket(client, name);
    return {
      properties,
      attributes: bucketAttributesOf(name, context.region),
      ...(identity ? { creationIdentity: identity } : {}),
    };
  }
}

function collision(name: string, logicalId: string): CdkdError {
  return new CdkdError(
    'NAMED_CREATE_COLLISION',
    `Cannot create ${logicalId}: a bucket named ${name} already exists (in this account or another).`,
    {
      hint: `Delete that bucket if it is yours, or give ${logicalId} another BucketName, then re-run the deploy.`,
    },
  );
}
