import type { StackDeployResult } from '../engine/deploy-stack.js';

/** `Stack.Key = value` lines under an "Outputs:" heading per stack, as `cdk deploy` prints them. */
export function renderOutputs(results: readonly StackDeployResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    const outputs = Object.entries(result.outputs);
    lines.push(`${result.stackName}${result.changed ? '' : ' (no changes)'}`);
    if (outputs.length === 0) continue;
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
