import type { ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import type { Machine } from './asl/interpreter.js';

export interface MachineFacts {
  arn: string;
  name: string;
  type: string;
  roleArn: string;
  definition: Machine;
}

export const TYPE = 'AWS::StepFunctions::StateMachine';

/**
 * A machine's definition as Step Functions holds it: its DefinitionString or Definition with
 * DefinitionSubstitutions applied (Cloud Control keeps the template's form).
 */
export function definitionText(model: ResourceModel): string | undefined {
  let text =
    typeof model.DefinitionString === 'string'
      ? model.DefinitionString
      : model.Definition !== undefined
        ? JSON.stringify(model.Definition)
        : undefined;
  if (text === undefined) return undefined;
  for (const [key, value] of Object.entries(
    (model.DefinitionSubstitutions as Record<string, unknown>) ?? {},
  )) {
    text = text.split(`\${${key}}`).join(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return text;
}

/**
 * A state machine as deployed (Cloud Control keeps AWS::StepFunctions::StateMachine):
 * its Definition or DefinitionString with DefinitionSubstitutions applied. Undefined when
 * no machine has the ARN, or its definition is not JSON.
 */
export function findMachine(
  context: SandboxContext,
  arn: string,
  accountId: string,
): MachineFacts | undefined {
  const region = arn.split(':')[3] ?? context.region;
  const model = context.resources.resolve(TYPE)?.read(arn, region, accountId);
  const text = model && definitionText(model);
  if (!model || text === undefined) return undefined;
  try {
    return {
      arn,
      name: String(model.StateMachineName ?? arn.split(':').pop()),
      type: String(model.StateMachineType ?? 'STANDARD'),
      roleArn: String(model.RoleArn ?? ''),
      definition: JSON.parse(text) as Machine,
    };
  } catch {
    return undefined;
  }
}
