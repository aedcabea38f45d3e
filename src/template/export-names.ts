import type { EvaluationContext } from './context.js';
import { evaluate } from './evaluator.js';
import { isPlainObject } from './model.js';
import { rootPath } from './path.js';
import { buildPseudoParameters, type PseudoParameterInput } from './pseudo-parameters.js';

export interface DeclaredExport {
  output: string;
  name: string;
}

/**
 * The export names a template declares that are known before deploying: literal names and
 * those built from pseudo parameters and mappings (`${AWS::StackName}:Arn`). An output with a
 * Condition, or a name built from parameters or resources, is left out: only the deploy knows it.
 */
export function staticExportNames(
  raw: Record<string, unknown>,
  pseudo: PseudoParameterInput,
): DeclaredExport[] {
  const outputs = isPlainObject(raw.Outputs) ? raw.Outputs : {};
  const context: EvaluationContext = {
    parameters: new Map(),
    pseudo: buildPseudoParameters(pseudo),
    mappings: new Map(
      Object.entries(isPlainObject(raw.Mappings) ? raw.Mappings : {}),
    ) as EvaluationContext['mappings'],
    condition: () => {
      throw new Error('conditions are not known before the deploy');
    },
    referenceScope: 'export names are compared before the deploy',
  };
  const declared: DeclaredExport[] = [];
  for (const [output, definition] of Object.entries(outputs)) {
    if (!isPlainObject(definition) || definition.Condition !== undefined) continue;
    if (!isPlainObject(definition.Export) || definition.Export.Name === undefined) continue;
    try {
      const name = evaluate(definition.Export.Name, context, rootPath('Outputs', output, 'Export', 'Name'));
      if (typeof name === 'string') declared.push({ output, name });
    } catch {
      // Built from something only the deploy resolves.
    }
  }
  return declared;
}
