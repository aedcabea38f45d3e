import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { TemplateResource } from '../../src/assembly/types.js';

const created: string[] = [];

/** A fresh temp directory, removed after the test file (tests may run concurrently). */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cdkd-assembly-'));
  created.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export { writeAssembly, writeJson, type StackSpec } from '../helpers/write-assembly.js';

/** An AWS::CloudFormation::Stack row pointing at a nested template, as CDK writes it. */
export function nestedRow(assetPath: string): TemplateResource {
  return {
    Type: 'AWS::CloudFormation::Stack',
    Properties: { TemplateURL: 'https://example.invalid/template.json' },
    Metadata: { 'aws:asset:path': assetPath },
  };
}
