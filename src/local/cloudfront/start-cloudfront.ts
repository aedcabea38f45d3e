import type { StackArtifact } from '../../assembly/index.js';
import {
  chooseStack,
  startLocalServers,
  type LocalServers,
  type ServedPlan,
  type StartInput,
} from '../serve/local-servers.js';
import { deploymentSources, sourceReader, type BucketReader } from './bucket-source.js';
import type { DeployedBucketReader } from './deployed-bucket.js';
import {
  distributionFunctions,
  hasDistribution,
  localDistributions,
  type LocalDistribution,
} from './distribution-model.js';
import { serveCloudFront } from './serve-cloudfront.js';
import { unsupportedReason } from './viewer-function.js';

export interface StartCloudFrontInput extends StartInput {
  /** The stack by display path or name; default: the only stack with a distribution. */
  stack?: string;
  /** Reads a deployed bucket; absent (--no-deployed): buckets are served from BucketDeployment sources only. */
  deployedBucket?: DeployedBucketReader;
}

/**
 * `cdkd local start-cloudfront`: each CloudFront distribution of the stack on a local port,
 * its behaviours matched in order, S3 origins served from what the app deploys into the
 * bucket (else the deployed bucket), function URL origins run by the local runner.
 */
export function startCloudFront(input: StartCloudFrontInput): Promise<LocalServers> {
  return startLocalServers(input, cloudFrontPlan);
}

async function cloudFrontPlan(input: StartCloudFrontInput): Promise<ServedPlan> {
  const stack = chooseStack(input.assembly.stacks, input.stack, hasDistribution, {
    kinds: 'CloudFront distribution',
    command: 'start-cloudfront',
  });
  const distributions = localDistributions(stack);
  const buckets = await bucketReaders(input, stack, distributions);
  for (const distribution of distributions)
    for (const behavior of distribution.behaviors) {
      if (typeof behavior.responseHeaders === 'string')
        input.onWarning(
          `Distribution ${distribution.logicalId}, behaviour ${behavior.pathPattern ?? '(default)'}: ${behavior.responseHeaders}.`,
        );
      for (const fn of behavior.functions) {
        const reason = unsupportedReason(fn);
        if (reason)
          input.onWarning(
            `CloudFront Function ${fn.logicalId} (${fn.eventType}) cannot run locally: ${reason}; requests to its behaviour are answered 502.`,
          );
      }
    }
  return {
    stack,
    functionIds: distributionFunctions(distributions),
    endpoints: (invoke) =>
      distributions.map((distribution) => ({
        description: `CloudFront distribution ${stack.displayName}/${distribution.logicalId}`,
        answer: (request) =>
          serveCloudFront(
            distribution,
            { invoke, region: input.region, buckets, onLog: input.onLog },
            request,
          ),
      })),
  };
}

/**
 * Where each S3 origin's objects come from, said once at start: the local directories the
 * app's BucketDeployments copy into the bucket (edits show on the next request), else the
 * deployed bucket, else nothing (its requests are answered 502 with the reason).
 */
async function bucketReaders(
  input: StartCloudFrontInput,
  stack: StackArtifact,
  distributions: readonly LocalDistribution[],
): Promise<Map<string, BucketReader | string>> {
  const readers = new Map<string, BucketReader | string>();
  for (const distribution of distributions) {
    for (const origin of distribution.origins.values()) {
      if (origin.kind !== 's3' || readers.has(origin.bucketId)) continue;
      const { sources, skipped } = deploymentSources(stack, origin.bucketId);
      if (skipped.length > 0)
        input.onWarning(
          `Bucket ${origin.bucketId}: BucketDeployment sources ${skipped.join(', ')} are not directories of the assembly (a zip file or generated content) and are not served.`,
        );
      if (sources.length > 0) {
        input.onInfo(
          `Bucket ${origin.bucketId}: served from its BucketDeployment sources (${sources.map((s) => s.directory).join(', ')}), as the deployment would fill it.`,
        );
        readers.set(origin.bucketId, sourceReader(sources));
        continue;
      }
      const deployed = await input.deployedBucket?.(stack, origin.bucketId);
      if (deployed) {
        input.onInfo(
          `Bucket ${origin.bucketId}: no BucketDeployment fills it, so it is served from the deployed bucket ${deployed.bucketName} (S3 GetObject).`,
        );
        readers.set(origin.bucketId, deployed.read);
        continue;
      }
      const why = input.deployedBucket
        ? 'no BucketDeployment of the app fills it and the stack is not deployed'
        : 'no BucketDeployment of the app fills it, and --no-deployed keeps the deployed bucket out';
      input.onWarning(`Bucket ${origin.bucketId}: ${why}; its requests are answered 502.`);
      readers.set(origin.bucketId, why);
    }
  }
  return readers;
}
