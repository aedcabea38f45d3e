import { createHash } from 'node:crypto';

/** The hash key space Kinesis divides among shards: 0 to 2^128 - 1. */
const HASH_SPACE = 1n << 128n;

export interface ShardRange {
  shardId: string;
  startingHashKey: bigint;
  endingHashKey: bigint;
}

/** Kinesis's shard ids: `shardId-` and the index as 12 digits. */
export function shardId(index: number): string {
  return `shardId-${String(index).padStart(12, '0')}`;
}

/** `count` shards splitting the hash key space evenly, as CreateStream makes them. */
export function evenShards(count: number): ShardRange[] {
  return Array.from({ length: count }, (_, index) => ({
    shardId: shardId(index),
    startingHashKey: (HASH_SPACE * BigInt(index)) / BigInt(count),
    endingHashKey: (HASH_SPACE * BigInt(index + 1)) / BigInt(count) - 1n,
  }));
}

/** The 128-bit hash key of a partition key: its MD5 as an unsigned integer. */
export function hashKeyOf(partitionKey: string): bigint {
  return BigInt(`0x${createHash('md5').update(partitionKey, 'utf8').digest('hex')}`);
}

/** The shard whose hash key range holds `hashKey`. */
export function shardFor(shards: readonly ShardRange[], hashKey: bigint): ShardRange {
  return shards.find((shard) => hashKey >= shard.startingHashKey && hashKey <= shard.endingHashKey)!;
}

/** An ExplicitHashKey as PutRecord takes it (a decimal in the hash key space), or undefined when invalid. */
export function explicitHashKey(text: string): bigint | undefined {
  if (!/^\d{1,39}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < HASH_SPACE ? value : undefined;
}

/**
 * Sequence numbers: one counter per stream, so a later record anywhere in the stream has a
 * larger number (Lambda's event source reads the stream from one position). Written as
 * Kinesis writes them: 56 decimal digits.
 */
export function sequenceNumber(counter: bigint): string {
  return `49${counter.toString().padStart(54, '0')}`;
}

/** The counter a sequence number carries, or undefined when it is not one of this shape. */
export function sequenceCounter(text: string): bigint | undefined {
  if (!/^\d{1,128}$/.test(text)) return undefined;
  const value = BigInt(text);
  const base = BigInt(`49${'0'.repeat(54)}`);
  return value >= base ? value - base : undefined;
}
