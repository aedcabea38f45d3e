import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import type { ExternalResolver, SuppliedParameterValue, Template } from '../../src/template/index.js';
import { classifyParameterType, parseTemplate } from '../../src/template/index.js';

/**
 * The CDK corpus: `CDKD_CORPUS_DIR` (a folder holding `templates/`), else `../shared/corpus`
 * beside the repository, where CI clones it. A fresh clone has neither.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpusRoot = process.env.CDKD_CORPUS_DIR
  ? path.resolve(process.env.CDKD_CORPUS_DIR)
  : path.resolve(repoRoot, '../shared/corpus');
export const corpusDir = path.join(corpusRoot, 'templates');

/** Why the corpus tests cannot run here, or undefined when the corpus is found. */
export const corpusMissing: string | undefined = existsSync(corpusDir)
  ? undefined
  : `the CDK corpus is not at ${corpusDir}${process.env.CDKD_CORPUS_DIR ? ' (CDKD_CORPUS_DIR)' : ' (a clone has no ../shared/corpus beside it)'}; set CDKD_CORPUS_DIR to a folder holding its templates/ to run them`;

let warned = false;

/**
 * `describe` for tests that read the corpus: without it they are skipped (vitest's skip), the
 * title says so and why, and the reason is printed once per file's worker.
 */
export function describeCorpus(title: string, body: () => void): void {
  if (corpusMissing && !warned) {
    warned = true;
    console.warn(`Skipping the corpus tests: ${corpusMissing}`);
  }
  describe.skipIf(corpusMissing !== undefined)(
    corpusMissing ? `${title} (skipped: ${corpusMissing})` : title,
    body,
  );
}

export function loadCorpusTemplate(fileName: string): Template {
  return parseTemplate(readFileSync(path.join(corpusDir, fileName), 'utf8'), fileName);
}

/**
 * A fake value shaped like the strings CDK templates take apart: an ARN with a path, a
 * dashed name segment, an OIDC-provider tail and a `||`-joined asset key, so the
 * Fn::Select-over-Fn::Split chains CDK emits (ARN fields, URL hosts, image tags, asset
 * version keys) find real segments.
 */
export function fakeArn(id: string, attribute: string): string {
  return `arn:aws:fake:us-east-1:123456789012:type/${id}/${attribute}/x:name-part-suffix:8:oidc-provider/a-b-c||tail`;
}

/** Attributes CloudFormation returns as lists (the CDK corpus uses these with Fn::Select / Fn::Join). */
const LIST_ATTRIBUTES = new Set([
  'Ipv6CidrBlocks',
  'CidrBlockAssociations',
  'DnsEntries',
  'NetworkInterfaceIds',
  'SourceObjectKeys',
]);

export const fakeResolver: ExternalResolver = {
  ref: (id) => fakeArn(id, 'Ref'),
  getAtt: (id, attribute) => {
    if (attribute === 'Ipv6CidrBlocks') return ['2001:db8:1234:1a00::/56'];
    if (LIST_ATTRIBUTES.has(attribute)) return [fakeArn(id, `${attribute}0`), fakeArn(id, `${attribute}1`)];
    // Fn::Cidr carves subnets from it, so it must be a real block.
    if (attribute === 'CidrBlock') return '10.0.0.0/16';
    return fakeArn(id, attribute);
  },
  importValue: (name) => fakeArn('import', name),
};

/** SSM answers (an AMI id, a bootstrap version...): any string does. */
export async function fakeSsm(name: string): Promise<string> {
  return `ssm-value-of-${name}`;
}

/**
 * Values for parameters without a Default: in the corpus these are nested-stack
 * parameters a parent stack passes (asset keys, referenced names), so they get the same
 * separator-rich shape.
 */
export function fakeRequiredParameters(template: Template): Record<string, SuppliedParameterValue> {
  const values: Record<string, SuppliedParameterValue> = {};
  for (const [name, def] of template.parameters) {
    if (def.default !== undefined) continue;
    const kind = classifyParameterType(def.type)?.kind;
    values[name] = kind === 'number' ? '1' : kind?.endsWith('list') ? ['a', 'b'] : fakeArn('param', name);
  }
  return values;
}
