import { CdkdError } from '../errors.js';

/**
 * Spec 002 "Deletion protection: what each refusal reads". `--remove-protection`'s table:
 * per type, where its protection flag lives and whether it is on. The six types with their
 * own refusal also say which AWS CLI command turns it off.
 */
type Bag = Record<string, unknown> | undefined;

interface ProtectionRow {
  /** How the flag is named in the message. */
  property: string;
  isOn(properties: Bag): boolean;
  /** The top-level properties that turn it off, for `cdkd destroy --remove-protection`. */
  turnOff(properties: Bag): Record<string, unknown>;
  /** The AWS CLI command that turns protection off, where a message names it. */
  offCommand?: (id: string) => string;
  /** One of the six types whose replacement refuses on its own protection property. */
  ownRefusal?: true;
}

const truthy = (value: unknown): boolean => String(value) === 'true';
const flagProperty = (name: string): ProtectionRow => ({
  property: name,
  isOn: (bag) => truthy(bag?.[name]),
  turnOff: () => ({ [name]: false }),
});
const enumProperty = (name: string, on: string, off: string): ProtectionRow => ({
  property: name,
  isOn: (bag) => bag?.[name] === on,
  turnOff: () => ({ [name]: off }),
});

/** ELBv2 keeps it among LoadBalancerAttributes as `deletion_protection.enabled`. */
function loadBalancerProtected(bag: Bag): boolean {
  const attributes = bag?.LoadBalancerAttributes;
  return (
    Array.isArray(attributes) &&
    attributes.some(
      (attribute: { Key?: unknown; Value?: unknown }) =>
        attribute?.Key === 'deletion_protection.enabled' && truthy(attribute.Value),
    )
  );
}

export const REMOVE_PROTECTION_TABLE: Readonly<Record<string, ProtectionRow>> = {
  'AWS::DynamoDB::Table': {
    ...flagProperty('DeletionProtectionEnabled'),
    offCommand: (id) => `aws dynamodb update-table --table-name ${id} --no-deletion-protection-enabled`,
  },
  'AWS::DynamoDB::GlobalTable': {
    ownRefusal: true,
    property: 'Replicas[].DeletionProtectionEnabled',
    isOn: (bag) =>
      Array.isArray(bag?.Replicas) &&
      bag.Replicas.some((replica: { DeletionProtectionEnabled?: unknown }) =>
        truthy(replica?.DeletionProtectionEnabled),
      ),
    turnOff: (bag) => ({
      Replicas: (bag?.Replicas as Bag[]).map((replica) => ({ ...replica, DeletionProtectionEnabled: false })),
    }),
    offCommand: (id) =>
      `aws dynamodb update-table --table-name ${id} --no-deletion-protection-enabled (in each replica's region)`,
  },
  'AWS::Logs::LogGroup': {
    ownRefusal: true,
    ...flagProperty('DeletionProtectionEnabled'),
    offCommand: (id) =>
      `aws logs put-log-group-deletion-protection --log-group-identifier ${id} --no-deletion-protection-enabled`,
  },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': {
    ownRefusal: true,
    property: 'LoadBalancerAttributes deletion_protection.enabled',
    isOn: loadBalancerProtected,
    turnOff: (bag) => ({
      LoadBalancerAttributes: (bag?.LoadBalancerAttributes as Array<{ Key?: unknown }>).map((attribute) =>
        attribute?.Key === 'deletion_protection.enabled' ? { ...attribute, Value: 'false' } : attribute,
      ),
    }),
    offCommand: (id) =>
      `aws elbv2 modify-load-balancer-attributes --load-balancer-arn ${id} --attributes Key=deletion_protection.enabled,Value=false`,
  },
  'AWS::EMR::Cluster': {
    ownRefusal: true,
    property: 'Instances.TerminationProtected',
    isOn: (bag) => truthy((bag?.Instances as Bag)?.TerminationProtected),
    turnOff: (bag) => ({ Instances: { ...(bag?.Instances as Bag), TerminationProtected: false } }),
    offCommand: (id) => `aws emr modify-cluster-attributes --cluster-id ${id} --no-termination-protected`,
  },
  'AWS::Cognito::UserPool': {
    ownRefusal: true,
    ...enumProperty('DeletionProtection', 'ACTIVE', 'INACTIVE'),
    offCommand: (id) =>
      `aws cognito-idp update-user-pool --user-pool-id ${id} --deletion-protection INACTIVE`,
  },
  // Only prevent-all-deletion blocks a replacement: the deploy's delete never passes ForceDelete.
  'AWS::AutoScaling::AutoScalingGroup': {
    ownRefusal: true,
    ...enumProperty('DeletionProtection', 'prevent-all-deletion', 'none'),
    offCommand: (id) =>
      `aws autoscaling update-auto-scaling-group --auto-scaling-group-name ${id} --deletion-protection none`,
  },
  'AWS::RDS::DBInstance': flagProperty('DeletionProtection'),
  'AWS::RDS::DBCluster': flagProperty('DeletionProtection'),
  'AWS::DocDB::DBCluster': flagProperty('DeletionProtection'),
  'AWS::Neptune::DBCluster': flagProperty('DeletionProtection'),
  'AWS::NeptuneGraph::Graph': flagProperty('DeletionProtection'),
  'AWS::QLDB::Ledger': flagProperty('DeletionProtection'),
  'AWS::EKS::Cluster': flagProperty('DeletionProtection'),
  'AWS::OpenSearchServerless::Collection': enumProperty('DeletionProtection', 'ENABLED', 'DISABLED'),
  'AWS::DSQL::Cluster': flagProperty('DeletionProtectionEnabled'),
  'AWS::CloudTrail::EventDataStore': flagProperty('TerminationProtectionEnabled'),
  'AWS::EC2::Instance': flagProperty('DisableApiTermination'),
  'AWS::SMSVOICE::PhoneNumber': flagProperty('DeletionProtectionEnabled'),
  'AWS::SMSVOICE::SenderId': flagProperty('DeletionProtectionEnabled'),
};

/** How long a delete keeps trying after --remove-protection turned protection off, for AWS to see it. */
export const PROTECTION_OFF_ALLOWANCE_MS = 10_000;

/**
 * What `cdkd destroy --remove-protection` sets before deleting a resource whose recorded
 * properties turn its protection on; undefined when there is nothing to turn off.
 */
export function protectionOffChanges(type: string, properties: Bag): Record<string, unknown> | undefined {
  const row = REMOVE_PROTECTION_TABLE[type];
  return row?.isOn(properties) ? row.turnOff(properties) : undefined;
}

/**
 * Whether an id can be printed on a command line as it is: printable ASCII with nothing a
 * shell acts on (quotes, backticks, whitespace ...) and nothing the AWS CLI itself reads
 * (a leading `file://` or `-`). Anything else sends the user to the console instead.
 */
export function safeOnCommandLine(id: string): boolean {
  return (
    id.length > 0 &&
    /^[\x21-\x7e]+$/.test(id) &&
    !/["'`$\\;&|<>(){}[\]*?!#~^]/.test(id) &&
    !id.startsWith('-') &&
    !/^fileb?:\/\//i.test(id)
  );
}

/** The way to turn a resource's protection off: the AWS CLI command, or the console. */
export function turnOffAdvice(type: string, id: string): string {
  const command = REMOVE_PROTECTION_TABLE[type]?.offCommand;
  return command && safeOnCommandLine(id)
    ? `turn it off with: ${command(id)}`
    : `turn it off in the AWS console (its id ${JSON.stringify(id)} is not safe to print on a command line)`;
}

/**
 * The stateful guard's note (spec 002): reads the recorded properties and the stored
 * read-back, never AWS. Undefined when the type is not in the table or its flag is off.
 */
export function protectionNote(
  logicalId: string,
  type: string,
  record: { properties?: Bag; observedProperties?: Bag },
): string | undefined {
  const row = REMOVE_PROTECTION_TABLE[type];
  if (!row || !(row.isOn(record.properties) || row.isOn(record.observedProperties))) return undefined;
  return (
    `${logicalId} has deletion protection on (${row.property}), which cdkd deploy cannot clear: a delete-first ` +
    'deploy fails at its delete, and a create-first one leaves the old resource in AWS, no longer tracked. ' +
    'Turn it off in the console or with the service API first ' +
    '(see "Deletion protection" under cdkd deploy: safety & compatibility flags).'
  );
}

/** The six types whose replacement refuses on its own, reading its own protection property. */
export const OWN_REFUSAL_TYPES: readonly string[] = Object.keys(REMOVE_PROTECTION_TABLE).filter(
  (type) => REMOVE_PROTECTION_TABLE[type]!.ownRefusal === true,
);

/**
 * A replacement of one of the six types refused on its own protection property: the recorded
 * properties, except AWS::Cognito::UserPool, which reads the template's value first (spec 002:
 * clearing it in the template takes effect in that same deploy).
 */
export function ownProtectionRefusal(input: {
  logicalId: string;
  type: string;
  physicalId: string;
  recorded: Bag;
  desired?: Bag;
  updateReplacePolicy?: string;
}): CdkdError | undefined {
  // Retain keeps the old resource: nothing is deleted, so nothing is refused.
  if (!OWN_REFUSAL_TYPES.includes(input.type) || input.updateReplacePolicy === 'Retain') return undefined;
  const row = REMOVE_PROTECTION_TABLE[input.type]!;
  const desiredFirst =
    input.type === 'AWS::Cognito::UserPool' && input.desired?.DeletionProtection !== undefined;
  const on = desiredFirst ? row.isOn(input.desired) : row.isOn(input.recorded);
  if (!on) return undefined;
  return new CdkdError(
    'DELETION_PROTECTED',
    `${input.logicalId} (${input.type}) ${input.physicalId} has deletion protection on (${row.property}), so it cannot be replaced.`,
    { hint: `${capitalize(turnOffAdvice(input.type, input.physicalId))}, then run cdkd deploy again.` },
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
