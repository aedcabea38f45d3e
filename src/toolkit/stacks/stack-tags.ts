import { CdkdError } from '../../errors.js';
import { schemaFor } from '../../resource-types/index.js';

type Template = Record<string, unknown>;

/**
 * The stack's tags (the manifest's `tags`: the CDK Stack's `tags` prop, `--tags`) on every
 * resource whose type takes tags, as CloudFormation propagates a stack's tags: a key the
 * resource already sets keeps its own value; a tags value that is not a literal list or map
 * (an intrinsic) is left as it is; `aws:` keys are reserved and never added. An Auto Scaling
 * group's tags propagate to its instances, as CloudFormation applies stack tags to them.
 */
export function withStackTags(template: Template, tags: Readonly<Record<string, string>>): Template {
  const added = Object.entries(tags).filter(([key]) => !key.toLowerCase().startsWith('aws:'));
  const resources = template.Resources;
  if (added.length === 0 || !isObject(resources)) return template;
  const tagged = Object.fromEntries(
    Object.entries(resources).map(([logicalId, resource]) => [logicalId, tagResource(resource, added)]),
  );
  return { ...template, Resources: tagged };
}

function tagResource(resource: unknown, tags: ReadonlyArray<[string, string]>): unknown {
  if (!isObject(resource) || typeof resource.Type !== 'string') return resource;
  const schema = schemaFor(resource.Type);
  const name = schema?.tagProperty;
  if (!schema || !name) return resource;
  const kind = schema.propertyKinds.get(name);
  const properties = isObject(resource.Properties) ? resource.Properties : {};
  const current = properties[name];
  let merged: unknown;
  if (kind === 'o' && (current === undefined || isObject(current))) {
    merged = { ...Object.fromEntries(tags), ...(current ?? {}) };
  } else if ((kind === 't' || kind === 'a') && (current === undefined || Array.isArray(current))) {
    const list = current ?? [];
    const present = new Set(list.filter(isObject).map((tag) => tag.Key));
    const extra = resource.Type === 'AWS::AutoScaling::AutoScalingGroup' ? { PropagateAtLaunch: true } : {};
    const missing = tags
      .filter(([key]) => !present.has(key))
      .map(([Key, Value]) => ({ Key, Value, ...extra }));
    if (missing.length === 0) return resource;
    merged = [...list, ...missing];
  } else {
    return resource;
  }
  return { ...resource, Properties: { ...properties, [name]: merged } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `--tags KEY=VALUE` (repeatable), as the CDK CLI takes them: they replace the app's stack tags. */
export function parseTagFlags(raw: readonly string[]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const entry of raw) {
    const equals = entry.indexOf('=');
    if (equals <= 0) {
      throw new CdkdError('TAGS_SYNTAX', `--tags ${entry}: expected KEY=VALUE.`, {
        hint: 'For example: --tags team=platform --tags cost-center=42',
      });
    }
    tags[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return tags;
}
