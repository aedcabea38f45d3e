import type { ProposalInput } from '../engine/proposal.js';
import type { StackRecord } from '../model/types.js';
import { requestedTemplate } from '../template/source.js';
import { cfnErrors } from '../wire/errors.js';
import type { CfnCall } from './call.js';

/**
 * What CreateStack, UpdateStack and CreateChangeSet ask for: the template (given, or the
 * stack's with UsePreviousTemplate), parameters (UsePreviousValue read from the stack), and
 * tags, notification topics and service role, which an update keeps when not given.
 */
export async function requestInput(call: CfnCall, stack: StackRecord | undefined): Promise<ProposalInput> {
  const { params } = call;
  let templateBody = await requestedTemplate(call.engine.deps.context, params);
  if (templateBody === undefined && params.flag('UsePreviousTemplate') === true && stack?.templateBody) {
    templateBody = stack.templateBody;
  }
  if (templateBody === undefined) {
    throw cfnErrors.validation('Either Template URL or Template Body must be specified.');
  }
  const previous = Object.fromEntries(
    (stack?.parameters ?? []).map((parameter) => [parameter.key, parameter.value]),
  );
  const parameters: Record<string, string> = {};
  for (const given of params.parameters()) {
    if (given.usePreviousValue) {
      const value = previous[given.key];
      if (value === undefined) {
        throw cfnErrors.validation(
          `Invalid input for parameter key ${given.key}. Cannot specify usePreviousValue as true for a parameter key not in the previous template`,
        );
      }
      parameters[given.key] = value;
    } else if (given.value !== undefined) {
      parameters[given.key] = given.value;
    }
  }
  const roleArn = params.optional('RoleARN') ?? stack?.roleArn;
  return {
    templateBody,
    parameters,
    tags: params.hasList('Tags') ? params.tags() : (stack?.tags ?? []),
    capabilities: params.members('Capabilities'),
    notificationArns: params.hasList('NotificationARNs')
      ? params.members('NotificationARNs')
      : (stack?.notificationArns ?? []),
    ...(roleArn !== undefined ? { roleArn } : {}),
  };
}
