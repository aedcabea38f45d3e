import type { AwsClients } from '../aws/index.js';
import { bucketRegion } from '../aws/bucket-region.js';
import { GenerationStore } from './generation-store.js';
import { JournalStore } from './journal-store.js';
import { normalizeStatePrefix } from './keys.js';
import { LockManager } from './lock.js';
import { S3Objects } from './s3-objects.js';
import { stateBucketError } from './state-bucket-errors.js';
import { StateStore } from './state-store.js';

export interface StateBackend {
  bucket: string;
  /** The region the bucket lives in, which may differ from the stacks' region. */
  bucketRegion: string;
  objects: S3Objects;
  store: StateStore;
  locks: LockManager;
  journals: JournalStore;
  generations: GenerationStore;
}

/**
 * Opens the state bucket with an S3 client built for the bucket's own region,
 * so a bucket in another region never surfaces as a bare 301 "UnknownError".
 */
export async function openStateBackend(
  clients: AwsClients,
  bucket: string,
  prefix: string,
): Promise<StateBackend> {
  // A prefix that escapes itself is refused before the bucket is looked up.
  normalizeStatePrefix(prefix);
  const defaultRegion = await clients.region();
  let region: string;
  try {
    region = await bucketRegion(await clients.s3(), bucket);
  } catch (error) {
    throw stateBucketError(error, bucket, defaultRegion, { action: 'locate', key: '', prefix });
  }
  // State, journal and lock documents are rewritten after every resource: no CRC32 of each
  // (S3 requires none for PutObject; the documents are validated when read), and the
  // custom-resource response URLs signed with this client carry no checksum of an empty body.
  const objects = new S3Objects(
    await clients.s3(region, { checksumsWhenRequired: true, sendBodyAtOnce: true }),
    bucket,
    region,
    prefix,
  );
  return {
    bucket,
    bucketRegion: region,
    objects,
    store: new StateStore(objects, prefix),
    locks: new LockManager(objects, prefix),
    journals: new JournalStore(objects, prefix),
    generations: new GenerationStore(objects, prefix),
  };
}
