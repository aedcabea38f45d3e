/**
 * Per-type facts about resource names that the engine's name checks read (spec 002,
 * "Creates under a taken name" and "Equal physical ids across a type change").
 */

/** A type whose names are unique across every account: the holder of a taken name may be another account's. */
export interface GlobalName {
  /** How a message names one resource of the type. */
  noun: string;
  /** The property that gives the name. */
  nameProperty: string;
}

const GLOBAL_NAMES: Readonly<Record<string, GlobalName>> = {
  'AWS::S3::Bucket': { noun: 'bucket', nameProperty: 'BucketName' },
};

export function globalNameOf(type: string): GlobalName | undefined {
  return Object.hasOwn(GLOBAL_NAMES, type) ? GLOBAL_NAMES[type] : undefined;
}

/**
 * A type whose physical id joins its parent's name and its own with a separator both may
 * hold, so two resources under different parents can share one id (`db|orders` in `my`,
 * `orders` in `my|db`).
 */
export interface ParentPrefixedId {
  /** The property naming the parent. */
  parentProperty: string;
  separator: string;
}

const PARENT_PREFIXED_IDS: Readonly<Record<string, ParentPrefixedId>> = {
  'AWS::Glue::Table': { parentProperty: 'DatabaseName', separator: '|' },
};

export function parentPrefixedIdOf(type: string): ParentPrefixedId | undefined {
  return Object.hasOwn(PARENT_PREFIXED_IDS, type) ? PARENT_PREFIXED_IDS[type] : undefined;
}

/** Where a resource lives, for the types whose physical id is an ARN built from its name. */
export interface ArnPlace {
  partition: string;
  region: string;
  accountId: string;
}

/** Types whose physical id is an ARN of the template's name, not the name itself. */
const ARNS_FROM_NAME: Readonly<Record<string, (name: string, at: ArnPlace) => string>> = {
  'AWS::SNS::Topic': (name, at) => `arn:${at.partition}:sns:${at.region}:${at.accountId}:${name}`,
};

export function arnFromNameOf(type: string): ((name: string, at: ArnPlace) => string) | undefined {
  return Object.hasOwn(ARNS_FROM_NAME, type) ? ARNS_FROM_NAME[type] : undefined;
}
