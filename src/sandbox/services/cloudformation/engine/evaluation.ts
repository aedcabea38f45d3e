import type { SandboxContext } from '../../../service-module.js';
import { SandboxError } from '../../../errors.js';
import {
  classifyParameterType,
  prepareTemplate,
  TemplateErrorCode,
  TemplateEvaluationError,
  type PreparedTemplate,
  type Template,
} from '../../../../template/index.js';
import { isCdkdError } from '../../../../errors.js';
import { availabilityZones } from '../../../account/regions.js';
import { cfnErrors } from '../wire/errors.js';
import type { StackParameter } from '../model/types.js';

/** The stack a template is evaluated for: its pseudo parameters. */
export interface StackEnv {
  stackName: string;
  stackId: string;
  region: string;
  accountId: string;
  notificationArns: readonly string[];
}

export interface PreparedGeneration {
  prepared: PreparedTemplate;
  /** Each parameter as the stack records it: the value given (or default), and an SSM value read. */
  parameters: StackParameter[];
}

/**
 * Parameters resolved (SSM-typed ones read from the sandbox's Parameter Store), Rules
 * asserted (the CDK's CheckBootstrapVersion included), Conditions evaluated: what
 * CloudFormation checks before a stack operation starts. Failures are CloudFormation's
 * ValidationErrors in its own words.
 */
export async function prepareGeneration(
  context: SandboxContext,
  template: Template,
  supplied: Readonly<Record<string, string>>,
  env: StackEnv,
): Promise<PreparedGeneration> {
  const unresolved: string[] = [];
  let prepared: PreparedTemplate;
  try {
    prepared = await prepareTemplate(template, {
      pseudo: env,
      parameters: supplied,
      ignoreCdkBootstrapRule: false,
      getAZs: (region) => availabilityZones(region).map((zone) => zone.zoneName),
      ssmParameter: async (name) => {
        const value = ssmParameterValue(context, name, env);
        if (value === undefined) {
          unresolved.push(name);
          throw new Error(`parameter ${name} not found`);
        }
        return value;
      },
    });
  } catch (error) {
    throw asValidationError(error, unresolved);
  }
  const parameters: StackParameter[] = [];
  for (const [key, definition] of template.parameters) {
    const given = Object.hasOwn(supplied, key) ? supplied[key] : definition.default;
    const resolved = prepared.parameters.values.get(key);
    if (given === undefined && resolved === undefined) continue;
    const value =
      given === undefined ? String(resolved) : Array.isArray(given) ? given.join(',') : String(given);
    const ssm = classifyParameterType(definition.type)?.ssm === true;
    parameters.push({
      key,
      value,
      ...(ssm && resolved !== undefined ? { resolvedValue: String(resolved) } : {}),
      ...(definition.noEcho ? { noEcho: true } : {}),
    });
  }
  return { prepared, parameters };
}

/** An SSM parameter's value in the stack's account and region, from the sandbox's SSM store. */
export function ssmParameterValue(
  context: SandboxContext,
  name: string,
  env: { region: string; accountId: string },
) {
  const model = context.resources.resolve('AWS::SSM::Parameter')?.read(name, env.region, env.accountId);
  return typeof model?.Value === 'string' ? model.Value : undefined;
}

/** A failure of template evaluation as CloudFormation words it. */
export function asValidationError(error: unknown, unresolvedSsm: readonly string[] = []): SandboxError {
  if (error instanceof SandboxError) return error;
  if (!(error instanceof TemplateEvaluationError)) {
    if (isCdkdError(error)) return cfnErrors.validation(`Template format error: ${error.message}`);
    throw error;
  }
  const name = error.path.split('.')[1] ?? '';
  switch (error.code) {
    case TemplateErrorCode.SsmParameterUnresolved:
      return cfnErrors.validation(
        `Unable to fetch parameters [${unresolvedSsm.join(',')}] from parameter store for this account.`,
      );
    case TemplateErrorCode.ParameterMissing:
      return cfnErrors.validation(`Parameters: [${name}] must have values`);
    case TemplateErrorCode.ParameterUnknown:
      return cfnErrors.validation(`Parameters: [${name}] do not exist in the template`);
    case TemplateErrorCode.ParameterInvalid:
      return cfnErrors.validation(
        `Parameter '${name}' ${error.detail.replace(/^value .*? for parameter \S+ /, '')}`,
      );
    case TemplateErrorCode.RuleAssertionFailed:
      return cfnErrors.validation(error.detail);
    default:
      return cfnErrors.validation(`Template error: ${error.message}`);
  }
}
