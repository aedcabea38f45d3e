import type { JsonObject, ProviderContext } from './provider.js';

interface PrefixedName {
  /** The property holding the template's name. */
  property: string;
  /** The service's length limit. */
  maxLength: number;
  /** What the service refuses in a name; each such character is sent as `-`. */
  refused: RegExp;
}

const IAM_REFUSED = /[^A-Za-z0-9_+=,.@-]/g;
const ELBV2_REFUSED = /[^A-Za-z0-9-]/g;

/**
 * The types that turn even a name the template gives into another before sending it
 * (spec 000): under --prefix-user-supplied-names, `{stack}-{name}`.
 */
const PREFIXED_NAMES: Readonly<Record<string, PrefixedName>> = {
  'AWS::IAM::Role': { property: 'RoleName', maxLength: 64, refused: IAM_REFUSED },
  'AWS::IAM::User': { property: 'UserName', maxLength: 64, refused: IAM_REFUSED },
  'AWS::IAM::Group': { property: 'GroupName', maxLength: 128, refused: IAM_REFUSED },
  'AWS::IAM::InstanceProfile': { property: 'InstanceProfileName', maxLength: 128, refused: IAM_REFUSED },
  'AWS::IAM::ManagedPolicy': { property: 'ManagedPolicyName', maxLength: 128, refused: IAM_REFUSED },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': { property: 'Name', maxLength: 32, refused: ELBV2_REFUSED },
  'AWS::ElasticLoadBalancingV2::TargetGroup': { property: 'Name', maxLength: 32, refused: ELBV2_REFUSED },
};

/** The property a type's prefixed name sits in; undefined for the types the setting leaves alone. */
export function prefixedNameProperty(type: string): string | undefined {
  return PREFIXED_NAMES[type]?.property;
}

/**
 * The name a create sends for a name the template gives. Without the prefix it is the
 * given name, unchanged. With it, `{stack}-{name}`: the stack part is cut to fit the
 * service's limit (the given name is kept whole, so two names never merge), and a
 * character the service refuses is sent as `-`. A given name that leaves no room for
 * even one character of the stack name is sent as it is.
 */
export function userSuppliedName(type: string, given: string, stackName: string, prefix: boolean): string {
  const rule = PREFIXED_NAMES[type];
  if (!rule || !prefix) return given;
  const room = rule.maxLength - given.length - 1;
  if (room < 1) return given;
  return `${stackName.slice(0, room)}-${given}`.replace(rule.refused, '-');
}

/** The properties a create sends: the given name of a prefixing type as {@link userSuppliedName} makes it. */
export function withUserSuppliedName(
  type: string,
  properties: JsonObject,
  context: ProviderContext,
): JsonObject {
  const property = prefixedNameProperty(type);
  const given = property ? properties[property] : undefined;
  if (!property || typeof given !== 'string' || given === '' || !context.prefixUserSuppliedNames) {
    return properties;
  }
  return { ...properties, [property]: userSuppliedName(type, given, context.stackName, true) };
}
