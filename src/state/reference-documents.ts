import type { S3Objects } from './s3-objects.js';

/** A stored document that may name an asset, and its text. */
export interface ReferenceDocument {
  location: string;
  text: string;
}

const GENERATION = /(^|\/)generation\.json$/;
const CURRENT_ONLY = [/(^|\/)state\.json$/, /(^|\/)rollback-journal\.json$/, /(^|\/)rollback-journal\//];
const LOCK = /(^|\/)lock\.json$/;

/**
 * Every document in the state bucket, under any prefix, that can name an asset a stack may
 * deploy again: each stack's state, rollback journal (and its tails), and every kept version of
 * its generation. Read in one listing of the bucket's versions, so nothing kept is missed.
 */
export async function referenceDocuments(objects: S3Objects): Promise<ReferenceDocument[]> {
  const versions = await objects.listVersionsUnder('');
  const wanted = versions.filter(
    (version) =>
      GENERATION.test(version.key) ||
      (version.isLatest && CURRENT_ONLY.some((pattern) => pattern.test(version.key))),
  );
  const documents: ReferenceDocument[] = [];
  for (const version of wanted) {
    const stored = await objects.getVersion(version.key, version.versionId);
    if (stored)
      documents.push({
        location: `${objects.location(version.key)}?versionId=${version.versionId}`,
        text: stored.text,
      });
  }
  return documents;
}

/** The lock documents in the state bucket, under any prefix: each a run in flight (or one that left its lock). */
export async function heldLocks(objects: S3Objects): Promise<string[]> {
  return (await objects.listKeys('')).filter((key) => LOCK.test(key));
}
