import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { parseTemplate, prepareTemplate } from '../../src/template/index.js';
import exclusions from './corpus-exclusions.json' with { type: 'json' };
import {
  corpusDir,
  describeCorpus,
  fakeRequiredParameters,
  fakeResolver,
  fakeSsm,
} from './corpus-support.js';

/** Templates that cannot be evaluated offline, each with its reason: `[{ "file", "reason" }]`. */
const excluded = new Map(
  (exclusions as Array<{ file: string; reason: string }>).map((e) => [e.file, e.reason]),
);

async function check(file: string): Promise<void> {
  const template = parseTemplate(readFileSync(path.join(corpusDir, file), 'utf8'), file);
  const prepared = await prepareTemplate(template, {
    pseudo: { accountId: '123456789012', region: 'us-east-1', stackName: 'CorpusStack' },
    parameters: fakeRequiredParameters(template),
    ssmParameter: fakeSsm,
  });
  for (const id of prepared.activeResources) {
    prepared.evaluateResourceProperties(id, fakeResolver);
    prepared.resourcePolicies(id);
  }
  prepared.evaluateOutputs(fakeResolver);
  const graph = prepared.dependencyGraph();
  expect(graph.topologicalOrder()).toHaveLength(prepared.activeResources.length);
}

describeCorpus('CDK integration-test corpus', () => {
  it('evaluates every template: parameters, rules, conditions, resources, outputs, graph', async () => {
    const files = readdirSync(corpusDir)
      .filter((f) => f.endsWith('.template.json'))
      .sort();
    expect(files.length).toBeGreaterThan(1000);
    const failures: string[] = [];
    const unexpectedPasses: string[] = [];
    let passed = 0;
    for (const file of files) {
      const outcome = await check(file).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      if (excluded.has(file)) {
        if (outcome === undefined) unexpectedPasses.push(file);
      } else if (outcome === undefined) passed++;
      else failures.push(`${file}: ${outcome}`);
    }
    console.log(
      `corpus: ${passed} passed, ${excluded.size} excluded, ${failures.length} failed of ${files.length}`,
    );
    expect(failures).toEqual([]);
    // An exclusion that now passes must be removed from corpus-exclusions.json.
    expect(unexpectedPasses).toEqual([]);
    expect([...excluded.keys()].filter((f) => !files.includes(f))).toEqual([]);
  });
});
