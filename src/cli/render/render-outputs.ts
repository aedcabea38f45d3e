import type { OutputChange, StackDeployResult } from '../../messages/index.js';
import { KNOWN_AFTER_DEPLOY } from '../../plan/known-after-deploy.js';

/**
 * `Stack.Key = value` lines under an "Outputs:" heading per stack, as `cdk deploy` prints them.
 * A stack with an output that could not be resolved has no Outputs section (see the warning).
 */
export function renderOutputs(results: readonly StackDeployResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    const outputs = Object.entries(result.outputs);
    lines.push(`${result.stackName}${result.changed ? '' : ' (no changes)'}`);
    if (outputs.length === 0 || (result.failedOutputs?.length ?? 0) > 0) continue;
    lines.push('Outputs:');
    for (const [name, output] of outputs) lines.push(`${result.stackName}.${name} = ${text(output.value)}`);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** `--outputs-file`: `{ "Stack": { "Key": "value" } }`, the CDK CLI's shape. */
export function outputsFileContent(results: readonly StackDeployResult[]): string {
  const content = Object.fromEntries(
    results.map((result) => [
      result.stackName,
      Object.fromEntries(Object.entries(result.outputs).map(([name, output]) => [name, output.value])),
    ]),
  );
  return `${JSON.stringify(content, null, 2)}\n`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One warning per stack whose Outputs section is left out, naming each output that failed and why. */
export function outputFailureWarnings(results: readonly StackDeployResult[]): string[] {
  return results
    .filter((result) => (result.failedOutputs?.length ?? 0) > 0)
    .map((result) => {
      const failed = result.failedOutputs!;
      const why = failed
        .map((output) => `${output.name}: ${output.message}${output.hint ? ` ${output.hint}` : ''}`)
        .join('; ');
      return `Outputs of ${result.stackName} not shown: ${failed.length === 1 ? 'an output' : 'outputs'} could not be resolved (${why})`;
    });
}

/**
 * `cdkd diff`'s Outputs section: `+` a new output, `-` one going away, `~` a changed value; a
 * value the deploy has yet to make shows as `(known after deploy)`.
 * Empty when nothing changes or an output could not be resolved (see the warning).
 */
export function renderOutputChanges(result: StackDeployResult): string {
  const changes = shownOutputChanges(result);
  if (changes.length === 0) return '';
  const lines = changes.map((change) => {
    const show = (value: unknown) => JSON.stringify(value);
    if (change.knownAfterDeploy) {
      return change.before === undefined
        ? `  + ${change.name}: ${KNOWN_AFTER_DEPLOY}`
        : `  ~ ${change.name}: ${show(change.before)} → ${KNOWN_AFTER_DEPLOY}`;
    }
    if (change.after === undefined) return `  - ${change.name}: ${show(change.before)}`;
    if (change.before === undefined) return `  + ${change.name}: ${show(change.after)}`;
    return `  ~ ${change.name}: ${show(change.before)} → ${show(change.after)}`;
  });
  return `Outputs:\n${lines.join('\n')}\n`;
}

/**
 * The output changes `cdkd diff` shows, in text and in `--json`: none when an output could not
 * be resolved, since the stack's Outputs section is then left out (see the warning).
 */
export function shownOutputChanges(result: StackDeployResult): OutputChange[] {
  return (result.failedOutputs?.length ?? 0) > 0 ? [] : (result.outputChanges ?? []);
}
