import { createHash, randomInt } from 'node:crypto';

/**
 * The random source for a generated name. Seeded by the create's idempotency token, every
 * attempt of one logical create picks the same name, so a retry after a lost response
 * finds the first attempt's resource (CreateQueue / CreateTopic return it, S3 answers
 * BucketAlreadyOwnedByYou) instead of making a second one under a new name.
 */
export function nameRandom(seed: string | undefined): (alphabetSize: number) => number {
  if (seed === undefined) return (size) => randomInt(size);
  let counter = 0;
  return (size) => {
    const digest = createHash('sha256').update(`${seed}:${counter++}`).digest();
    return digest.readUInt32BE(0) % size;
  };
}
