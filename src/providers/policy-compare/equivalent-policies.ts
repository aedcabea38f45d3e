/** The Version IAM assumes when a policy names none. */
const DEFAULT_VERSION = '2008-10-17';

const ROOT_ARN = /^arn:aws[a-z-]*:iam::(\d{12}):root$/;

/**
 * Whether two policy documents (objects or JSON text) say the same, up to spellings IAM
 * reads as one: key order, list order, a one-element list and its value (so a Statement
 * object and a one-element Statement list), a bare account id and its root ARN (SQS stores
 * the one as the other), a `"*"` principal and `{"AWS": "*"}`, and a missing Version and
 * IAM's default. Text that is not JSON equals nothing.
 */
export function samePolicy(a: unknown, b: unknown): boolean {
  const left = canonicalText(a);
  return left !== undefined && left === canonicalText(b);
}

function canonicalText(document: unknown): string | undefined {
  let value = document;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (isObject(value)) value = { Version: DEFAULT_VERSION, ...value };
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical).sort((x, y) => compare(JSON.stringify(x), JSON.stringify(y)));
    return items.length === 1 ? items[0] : items;
  }
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(compare)
      .map((key) => {
        const item = value[key];
        return [key, canonical(key === 'Principal' || key === 'NotPrincipal' ? principal(item) : item)];
      }),
  );
}

function principal(value: unknown): unknown {
  if (value === '*') return { AWS: '*' };
  if (!isObject(value) || value.AWS === undefined) return value;
  const aws = value.AWS;
  return { ...value, AWS: Array.isArray(aws) ? aws.map(account) : account(aws) };
}

/** A root ARN as its bare account id, the shorter of the two spellings. */
function account(value: unknown): unknown {
  return typeof value === 'string' ? (ROOT_ARN.exec(value)?.[1] ?? value) : value;
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
