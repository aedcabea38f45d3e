import { SandboxError } from '../../errors.js';

/**
 * CloudWatch errors as its JSON protocol returns them: the shape name in `__type`, and the
 * query protocol's code in `x-amzn-query-error` (the SDK exposes it as `Code`: the client is
 * awsQueryCompatible).
 */
function cloudWatchError(code: string, queryCode: string, message: string, status = 400): SandboxError {
  return new SandboxError(code, message, status, {
    headers: { 'x-amzn-query-error': `${queryCode};${status >= 500 ? 'Receiver' : 'Sender'}` },
  });
}

export const cloudWatchErrors = {
  validation: (message: string) => cloudWatchError('ValidationException', 'ValidationError', message),
  /** A required member the request left out, in AWS's model-validation wording. */
  missing: (member: string) =>
    cloudWatchError(
      'ValidationException',
      'ValidationError',
      `1 validation error detected: Value null at '${member.charAt(0).toLowerCase()}${member.slice(1)}' failed to satisfy constraint: Member must not be null`,
    ),
  invalidParameterValue: (message: string) =>
    cloudWatchError('InvalidParameterValueException', 'InvalidParameterValue', message),
  invalidParameterCombination: (message: string) =>
    cloudWatchError('InvalidParameterCombinationException', 'InvalidParameterCombination', message),
  /** DeleteAlarms / DescribeAlarmHistory naming an alarm that does not exist. */
  alarmsNotFound: (names: readonly string[]) =>
    cloudWatchError(
      'ResourceNotFound',
      'ResourceNotFound',
      `${names.length} of the alarms specified could not be found: ${names.join(', ')}`,
      404,
    ),
  /** The tagging calls' error for an ARN naming no alarm. */
  resourceNotFound: (arn: string) =>
    new SandboxError('ResourceNotFoundException', `${arn} not found`, 404, {
      fields: { ResourceType: 'Alarm', ResourceId: arn },
      headers: { 'x-amzn-query-error': 'ResourceNotFoundException;Sender' },
    }),
  invalidNextToken: () =>
    cloudWatchError('InvalidNextToken', 'InvalidNextToken', 'The next token specified is invalid.'),
  invalidAction: (operation: string) =>
    cloudWatchError(
      'InvalidAction',
      'InvalidAction',
      `The action ${operation} is not valid for this web service.`,
    ),
};
