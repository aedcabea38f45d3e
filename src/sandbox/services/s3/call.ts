import type { SandboxRequest, SandboxResponse } from '../../request.js';
import type { SandboxContext } from '../../service-module.js';
import type { BucketState, S3Store } from './store.js';
import { s3Errors } from './s3-errors.js';

/** Everything an S3 operation handler needs for one request. */
export interface S3Call {
  request: SandboxRequest;
  store: S3Store;
  context: SandboxContext;
  bucket: string;
  key: string;
}

export type S3Handler = (call: S3Call) => Promise<SandboxResponse>;

/**
 * The addressed bucket; a name owned by another account is AccessDenied, as on AWS.
 * A request signed for another region than the bucket's is answered as S3's regional
 * endpoints answer it: 301 PermanentRedirect (a bodiless 301 on HEAD). Only
 * GetBucketLocation (`anyRegion`) and copy sources are served from any region.
 */
export function requireBucket(
  call: S3Call,
  name = call.bucket,
  options: { anyRegion?: boolean } = {},
): BucketState {
  if (call.context.foreignBuckets.has(name)) throw s3Errors.accessDenied();
  const state = call.store.bucket(name);
  if (!state) throw s3Errors.noSuchBucket(name);
  if (!options.anyRegion && name === call.bucket && state.record.region !== call.request.region) {
    throw s3Errors.permanentRedirect(name, state.record.region);
  }
  return state;
}

/** The 64-hex canonical user id S3 shows as the owner, derived from the account id. */
export function canonicalUserId(accountId: string): string {
  return Buffer.from(accountId.padStart(32, '0')).toString('hex').slice(0, 64);
}

export function emptyResponse(status = 200, headers: Record<string, string> = {}): SandboxResponse {
  return { status, headers };
}
