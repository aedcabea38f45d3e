/** How a parameter's value is shaped once resolved. */
export type ParameterKind = 'string' | 'number' | 'string-list' | 'number-list';

export interface ParameterTypeInfo {
  readonly kind: ParameterKind;
  /** `AWS::SSM::Parameter::Value<...>`: the value names an SSM parameter whose value is used. */
  readonly ssm: boolean;
}

const SSM_VALUE = /^AWS::SSM::Parameter::Value<(.+)>$/;
const AWS_SPECIFIC = /^AWS::[A-Za-z0-9]+::[A-Za-z0-9:]+$/;
const AWS_SPECIFIC_LIST = /^List<AWS::[A-Za-z0-9]+::[A-Za-z0-9:]+>$/;

function plainKind(type: string): ParameterKind | undefined {
  if (type === 'String') return 'string';
  if (type === 'Number') return 'number';
  if (type === 'List<Number>') return 'number-list';
  if (type === 'CommaDelimitedList' || type === 'List<String>') return 'string-list';
  // AWS-specific types (AWS::EC2::VPC::Id, ...) are validated by CloudFormation against
  // the account; cdkd treats them as the strings (or string lists) they resolve to.
  if (AWS_SPECIFIC.test(type)) return 'string';
  if (AWS_SPECIFIC_LIST.test(type)) return 'string-list';
  return undefined;
}

/** undefined for a type CloudFormation does not define. */
export function classifyParameterType(type: string): ParameterTypeInfo | undefined {
  const ssm = SSM_VALUE.exec(type);
  if (ssm) {
    const inner = plainKind(ssm[1]!);
    // SSM holds strings only: Number and List<Number> are not valid inner types.
    return inner === 'string' || inner === 'string-list' ? { kind: inner, ssm: true } : undefined;
  }
  const kind = plainKind(type);
  return kind ? { kind, ssm: false } : undefined;
}
