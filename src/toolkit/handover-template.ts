import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { type TemplateSource } from '../aws/index.js';
import { assetBucketName } from '../state/bucket-names.js';
import { ensureAssetBucket } from './bootstrap/bootstrap.js';
import type { Session } from './session/session.js';

/** CloudFormation's limit on a template given inline (TemplateBody), in bytes. */
export const MAX_TEMPLATE_BODY = 51_200;

/** Where in the region's asset bucket cdkd puts templates it hands CloudFormation by URL. */
export const HANDOVER_TEMPLATE_PREFIX = 'cdkd-handover-templates/';

/**
 * Runs `use` with the template as CloudFormation takes it: inline up to 51,200 bytes, else
 * by URL (`withTemplateUrl`).
 */
export async function withTemplateSource<T>(
  session: Session,
  region: string,
  stackName: string,
  text: string,
  use: (template: TemplateSource) => Promise<T>,
): Promise<T> {
  if (Buffer.byteLength(text) <= MAX_TEMPLATE_BODY) return use({ body: text });
  return withTemplateUrl(session, region, stackName, text, (url) => use({ url }));
}

/**
 * Runs `use` with the template uploaded to cdkd's asset bucket of the region under a key of
 * cdkd's own, given by URL (a nested stack's template is only ever taken so), the object
 * deleted once `use` is done (it waits for CloudFormation to have read it).
 */
export async function withTemplateUrl<T>(
  session: Session,
  region: string,
  stackName: string,
  text: string,
  use: (url: string) => Promise<T>,
): Promise<T> {
  const accountId = await session.accountId();
  await ensureAssetBucket((bucketRegion) => session.clients.s3(bucketRegion), accountId, region);
  const bucket = assetBucketName(accountId, region);
  const digest = createHash('sha256').update(text).digest('hex');
  const key = `${HANDOVER_TEMPLATE_PREFIX}${stackName}/${digest}.json`;
  const s3 = await session.clients.s3(region);
  await s3.send(
    new PutObjectCommand({ Bucket: bucket, Key: key, Body: text, ContentType: 'application/json' }),
  );
  try {
    return await use(`https://${bucket}.s3.${region}.amazonaws.com/${key}`);
  } finally {
    // A copy left behind under cdkd's own prefix holds nothing else: the hand-over's outcome stands.
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
  }
}

/** `withTemplateUrl` for several templates at once, `use` given each one's URL by its key. */
export async function withTemplateUrls<T>(
  session: Session,
  region: string,
  stackName: string,
  texts: ReadonlyMap<string, string>,
  use: (urls: ReadonlyMap<string, string>) => Promise<T>,
): Promise<T> {
  const entries = [...texts];
  const urls = new Map<string, string>();
  const next = async (i: number): Promise<T> => {
    const entry = entries[i];
    if (!entry) return use(urls);
    return withTemplateUrl(session, region, `${stackName}-${entry[0]}`, entry[1], (url) => {
      urls.set(entry[0], url);
      return next(i + 1);
    });
  };
  return next(0);
}
