/**
 * `{{resolve:ssm:...}}`, `{{resolve:ssm-secure:...}}`, `{{resolve:secretsmanager:...}}`.
 * The evaluator leaves them in place, so state and logs never hold the secret; the engine
 * calls resolveDynamicReferences on the copy it is about to send, and only then.
 */
export type DynamicReferenceService = 'ssm' | 'ssm-secure' | 'secretsmanager';

export interface DynamicReference {
  /** The full `{{resolve:...}}` text. */
  readonly text: string;
  readonly service: DynamicReferenceService;
  /** ssm/ssm-secure: the parameter name; secretsmanager: the secret id (name or ARN). */
  readonly key: string;
  /** ssm/ssm-secure only. */
  readonly version?: string;
  /** secretsmanager only (SecretString is the only secret-type CloudFormation accepts). */
  readonly jsonKey?: string;
  readonly versionStage?: string;
  readonly versionId?: string;
}

export type DynamicReferenceResolver = (reference: DynamicReference) => Promise<string>;

const PATTERN = /\{\{resolve:(ssm|ssm-secure|secretsmanager):([^}]+)\}\}/g;

function parse(text: string, service: DynamicReferenceService, body: string): DynamicReference {
  if (service !== 'secretsmanager') {
    const version = /^(.*):(\d+)$/.exec(body);
    return { text, service, key: version ? version[1]! : body, version: version?.[2] };
  }
  const fields = body.split(':');
  // A secret ARN holds 7 colon-separated fields itself: arn:aws:secretsmanager:region:acct:secret:name
  const idFields = body.startsWith('arn:') ? 7 : 1;
  const key = fields.slice(0, idFields).join(':');
  const [, jsonKey, versionStage, versionId] = fields.slice(idFields);
  const opt = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
  return {
    text,
    service,
    key,
    jsonKey: opt(jsonKey),
    versionStage: opt(versionStage),
    versionId: opt(versionId),
  };
}

/** The dynamic references inside one string, in order. */
export function parseDynamicReferences(value: string): DynamicReference[] {
  if (!value.includes('{{resolve:')) return [];
  return [...value.matchAll(PATTERN)].map((m) => parse(m[0], m[1] as DynamicReferenceService, m[2]!));
}

/** True when a string anywhere inside `value` holds a dynamic reference. */
export function containsDynamicReference(value: unknown): boolean {
  if (typeof value === 'string') return parseDynamicReferences(value).length > 0;
  if (Array.isArray(value)) return value.some(containsDynamicReference);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(containsDynamicReference);
  return false;
}

/** A copy of `value` with every dynamic reference replaced by `resolver`'s answer. */
export async function resolveDynamicReferences(
  value: unknown,
  resolver: DynamicReferenceResolver,
): Promise<unknown> {
  if (typeof value === 'string') {
    const refs = parseDynamicReferences(value);
    if (refs.length === 0) return value;
    const answers = await Promise.all(refs.map(resolver));
    let i = 0;
    return value.replace(PATTERN, () => answers[i++]!);
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => resolveDynamicReferences(v, resolver)));
  if (typeof value === 'object' && value !== null) {
    const entries = await Promise.all(
      Object.entries(value).map(async ([k, v]) => [k, await resolveDynamicReferences(v, resolver)] as const),
    );
    return Object.fromEntries(entries);
  }
  return value;
}
