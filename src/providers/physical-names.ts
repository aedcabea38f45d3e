import { createHash, randomInt } from 'node:crypto';

export interface NameRules {
  /** The service's length limit for the name. */
  maxLength: number;
  /** Services that only take lower case (S3 buckets) get a lower-cased name. */
  lowerCase?: boolean;
  /** Characters the service accepts besides letters and digits; others become `-`. */
  extraCharacters?: string;
  /** Length of the random suffix (CloudFormation uses 12, 13 for some services). */
  suffixLength?: number;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The tag a create writes in its own create call, valued with its idempotency token, on
 * types whose name does not prove which create made the resource (Lambda functions, subnets,
 * KMS keys).
 */
export const TOKEN_TAG = 'cdkd:idempotency-token';

/**
 * The token a create under a name the template gives writes as its TOKEN_TAG, in the create
 * call itself: the name proves nothing (it may be a resource the create collided with), so the
 * tag is what `locate` reads after a killed create. Undefined for a generated name, which the
 * token already proves, or without a token.
 */
export function namedCreateToken(
  given: unknown,
  request: { idempotencyToken?: string | undefined },
): string | undefined {
  return given !== undefined && given !== '' ? request.idempotencyToken : undefined;
}

/**
 * A CloudFormation-style generated name, `{stack}-{logicalId}-{SUFFIX}`, for a
 * resource the template leaves unnamed: the stack and logical id parts are cut
 * to fit the service's limit, the random suffix is always kept whole.
 */
export function generatePhysicalName(
  stackName: string,
  logicalId: string,
  rules: NameRules,
  random: (alphabetSize: number) => number = (size) => randomInt(size),
): string {
  const suffixLength = rules.suffixLength ?? 12;
  const suffix = Array.from({ length: suffixLength }, () => ALPHABET[random(ALPHABET.length)]).join('');
  const clean = (text: string) =>
    text.replace(new RegExp(`[^A-Za-z0-9${escape(rules.extraCharacters ?? '-')}]`, 'g'), '-');
  const budget = rules.maxLength - suffixLength - 2;
  if (budget < 2) return finish(suffix.slice(0, rules.maxLength), rules);
  const stackPart = clean(stackName).slice(0, Math.ceil(budget / 2));
  const logicalPart = clean(logicalId).slice(0, budget - stackPart.length);
  return finish(`${stackPart}-${logicalPart}-${suffix}`, rules);
}

function finish(name: string, rules: NameRules): string {
  return rules.lowerCase ? name.toLowerCase() : name;
}

function escape(characters: string): string {
  return characters.replace(/[\\\]^-]/g, '\\$&');
}

/**
 * The random source for a generated name. Seeded by the create's idempotency token, every
 * attempt of one logical create picks the same name, so a retry after a lost response meets
 * the first attempt's resource instead of making a second one, and `locate` can find what a
 * killed create made: only that create's token yields the name. Unseeded, it is random.
 */
export function nameRandom(seed: string | undefined): (alphabetSize: number) => number {
  if (seed === undefined) return (size) => randomInt(size);
  let counter = 0;
  return (size) => {
    const digest = createHash('sha256').update(`${seed}:${counter++}`).digest();
    return digest.readUInt32BE(0) % size;
  };
}

/**
 * True when the template names nothing and the create carries a token: the name it
 * generates is that create's alone, so finding it proves the create made it (a name the
 * template gives may belong to anything the create collided with).
 */
export function nameFromToken(given: unknown, request: { idempotencyToken?: string | undefined }): boolean {
  return (given === undefined || given === '') && request.idempotencyToken !== undefined;
}

/** The name the template gives, else the one generated from the create's token. */
export function givenOrTokenName(
  given: unknown,
  stackName: string,
  request: { logicalId: string; idempotencyToken?: string | undefined },
  rules: NameRules,
): string {
  return given !== undefined && given !== '' ? String(given) : tokenPhysicalName(stackName, request, rules);
}

/** The name an unnamed create generates, its suffix derived from the create's idempotency token when it has one. */
export function tokenPhysicalName(
  stackName: string,
  request: { logicalId: string; idempotencyToken?: string | undefined },
  rules: NameRules,
): string {
  return generatePhysicalName(stackName, request.logicalId, rules, nameRandom(request.idempotencyToken));
}
