import { SandboxError } from '../../errors.js';

/** EC2's errors: codes with a dotted suffix, all client faults with status 400. */
export const ec2Errors = {
  notFound: (code: string, message: string) => new SandboxError(code, message, 400),
  invalidParameterValue: (message: string) => new SandboxError('InvalidParameterValue', message, 400),
  missingParameter: (name: string) =>
    new SandboxError('MissingParameter', `The request must contain the parameter ${name}`, 400),
  invalidFilter: (name: string) =>
    new SandboxError('InvalidParameterValue', `The filter '${name}' is invalid`, 400),
  groupNotFound: (groupId: string) =>
    new SandboxError('InvalidGroup.NotFound', `The security group '${groupId}' does not exist`, 400),
  ruleNotFound: () =>
    new SandboxError(
      'InvalidPermission.NotFound',
      'The specified rule does not exist in this security group.',
      400,
    ),
  duplicateRule: (peer: string, protocol: string) =>
    new SandboxError(
      'InvalidPermission.Duplicate',
      `the specified rule "peer: ${peer}, ${protocol === '-1' ? 'ALL' : protocol.toUpperCase()}, ALLOW" already exists`,
      400,
    ),
  invalidAction: (action: string) =>
    new SandboxError('InvalidAction', `The action ${action} is not valid for this web service.`, 400),
};
