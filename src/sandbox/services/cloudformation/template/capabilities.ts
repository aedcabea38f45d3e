import type { Template } from '../../../../template/index.js';

/** The IAM types CloudFormation makes a caller acknowledge, and the property that names each. */
const IAM_TYPES: Readonly<Record<string, string | undefined>> = {
  'AWS::IAM::AccessKey': undefined,
  'AWS::IAM::Group': 'GroupName',
  'AWS::IAM::InstanceProfile': 'InstanceProfileName',
  'AWS::IAM::Policy': undefined,
  'AWS::IAM::ManagedPolicy': 'ManagedPolicyName',
  'AWS::IAM::Role': 'RoleName',
  'AWS::IAM::User': 'UserName',
  'AWS::IAM::UserToGroupAddition': undefined,
};

/**
 * The capability a template needs that the caller did not acknowledge, or undefined:
 * CAPABILITY_IAM for IAM resources, CAPABILITY_NAMED_IAM when one of them has a custom name
 * (which also covers the first).
 */
export function missingCapability(template: Template, acknowledged: readonly string[]): string | undefined {
  let iam = false;
  let named = false;
  for (const resource of template.resources.values()) {
    if (!Object.hasOwn(IAM_TYPES, resource.type)) continue;
    iam = true;
    const nameProperty = IAM_TYPES[resource.type];
    if (nameProperty !== undefined && resource.properties[nameProperty] !== undefined) named = true;
  }
  if (named && !acknowledged.includes('CAPABILITY_NAMED_IAM')) return 'CAPABILITY_NAMED_IAM';
  if (iam && !acknowledged.includes('CAPABILITY_IAM') && !acknowledged.includes('CAPABILITY_NAMED_IAM')) {
    return 'CAPABILITY_IAM';
  }
  return undefined;
}

/** Every capability the template needs, for GetTemplateSummary and ValidateTemplate. */
export function requiredCapabilities(template: Template): string[] {
  const missing = missingCapability(template, []);
  return missing === undefined ? [] : [missing];
}
