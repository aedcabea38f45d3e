import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from './deploy-engine.js';

/** Writes a cloud assembly holding one stack, as `cdk synth` does, under `root/stackName`. */
export function writeStackAssembly(root: string, stackName: string, template: Template): string {
  const dir = join(root, stackName);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${stackName}.template.json`), JSON.stringify(template));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      version: '36.0.0',
      artifacts: {
        [stackName]: {
          type: 'aws:cloudformation:stack',
          environment: 'aws://unknown-account/unknown-region',
          properties: { templateFile: `${stackName}.template.json` },
        },
      },
    }),
  );
  return dir;
}
