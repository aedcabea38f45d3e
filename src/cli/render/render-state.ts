import type { StateDocument } from '../../state/index.js';

export function renderStateDocument(location: string, document: StateDocument): string {
  const lines = [
    `Stack ${document.stackName} (${document.region})`,
    `  state:   ${location}`,
    `  updated: ${document.updatedAt}`,
  ];
  const resources = Object.entries(document.resources);
  lines.push(`  resources (${resources.length}):`);
  for (const [logicalId, record] of resources.sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`    ${logicalId}\t${record.type}\t${record.physicalId}\t(${record.provisionedBy})`);
  }
  const outputs = Object.entries(document.outputs);
  if (outputs.length > 0) {
    lines.push('  outputs:');
    for (const [name, { value }] of outputs)
      lines.push(`    ${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return `${lines.join('\n')}\n`;
}
