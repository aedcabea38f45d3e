import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { classifyAwsError } from '../../aws/error-class.js';
import { CdkdError } from '../../errors.js';
import type { AssetObject, GenerationDocument, JournalDocument } from '../../state/index.js';
import { MASK } from '../../template/parameters.js';

/** A pending rollback journal is settled first: undo deploys over the state, which the journal would contradict. */
export function refusePendingJournal(stackName: string, journal: JournalDocument | undefined): void {
  if (!journal || journal.segments.length === 0) return;
  throw new CdkdError(
    'UNDO_JOURNAL_PENDING',
    `Stack ${stackName} has a rollback journal (${journal.segments.length} segment${journal.segments.length === 1 ? '' : 's'}): its last run did not finish cleanly.`,
    {
      hint: `Settle it first: cdkd rollback ${stackName} (or cdkd rollback ${stackName} --drop-failed after a clean automatic rollback), then cdkd undo again.`,
    },
  );
}

/** Undo deploys one template; a nested stack's template lives in its own state, which generations do not carry yet. */
export function refuseNestedStacks(stackName: string, generation: GenerationDocument): void {
  const resources = (generation.template.Resources ?? {}) as Record<string, { Type?: unknown }>;
  const nested = Object.entries(resources)
    .filter(([, resource]) => resource?.Type === 'AWS::CloudFormation::Stack')
    .map(([id]) => id);
  if (nested.length === 0) return;
  throw new CdkdError(
    'UNDO_NESTED_STACKS',
    `Generation ${generation.number} of ${stackName} holds nested stacks (${nested.join(', ')}), which cdkd undo does not restore.`,
    { hint: 'Check out the app as it was at that deploy and run cdkd deploy instead.' },
  );
}

/**
 * A NoEcho parameter is kept masked in the generation; it takes the value given with
 * --parameters, and one masked and not given refuses.
 */
export function refuseMaskedParameters(
  stackName: string,
  generation: GenerationDocument,
  values: Readonly<Record<string, string>>,
): void {
  const masked = Object.keys(values).filter((name) => values[name] === MASK);
  if (masked.length === 0) return;
  throw new CdkdError(
    'UNDO_PARAMETER_MASKED',
    `Generation ${generation.number} of ${stackName} keeps the NoEcho parameter${masked.length === 1 ? '' : 's'} ${masked.join(', ')} masked: cdkd never stores their values.`,
    {
      hint: `Pass each value: cdkd undo ${stackName} ${masked.map((name) => `--parameters ${name}=...`).join(' ')}`,
    },
  );
}

/** Every asset object the generation reads must still be in the bucket, or the undo refuses before anything changes. */
export async function refuseGoneAssets(
  s3: S3Client,
  stackName: string,
  generation: GenerationDocument,
): Promise<void> {
  const gone: AssetObject[] = [];
  for (const asset of generation.assets) {
    if (!(await objectExists(s3, asset))) gone.push(asset);
  }
  if (gone.length === 0) return;
  throw new CdkdError(
    'UNDO_ASSETS_GONE',
    `Generation ${generation.number} of ${stackName} reads assets no longer in the asset bucket: ${gone.map((asset) => `s3://${asset.bucket}/${asset.key}`).join(', ')}.`,
    {
      hint: 'Check out the app as it was at that deploy and run cdkd deploy (it publishes the assets again); cdkd gc keeps what kept generations name, so something else deleted them.',
    },
  );
}

async function objectExists(s3: S3Client, asset: AssetObject): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: asset.bucket, Key: asset.key }));
    return true;
  } catch (error) {
    if (classifyAwsError(error) === 'not-found') return false;
    throw error;
  }
}
