import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NestedTemplate, StackRequest } from '../../src/engine/stack-request.js';
import { nestedRow, tempDir, writeJson } from '../assembly/helpers.js';
import { failureOf } from '../helpers/error-chain.js';
import { options, useRollbackHarness } from './rollback-harness.js';

/**
 * Spec 002, "The nested-template walk": "The nested-stack provider repeats the same walk on the
 * subtree under its own row before it deploys the first nested level ... it is what still
 * refuses the tree if a nested deploy is ever started some other way, and its message begins
 * with NestedStackProvider: and ends with Refusing to deploy any level of it." These requests
 * are built by hand, as a deploy started without the cloud-assembly check would be.
 */
const h = useRollbackHarness();

const leaf = { Resources: { Inner: { Type: 'AWS::SQS::Queue' } } };

/** A parent whose `Child` row reads `child.json` in a fresh output directory holding `files`. */
function parentOf(files: Record<string, Record<string, unknown>>): { request: StackRequest; dir: string } {
  const dir = tempDir();
  for (const [name, template] of Object.entries(files)) writeJson(join(dir, name), template);
  const child: NestedTemplate = {
    template: files['child.json']!,
    nested: new Map(),
    templateFile: join(dir, 'child.json'),
  };
  const request: StackRequest = {
    ...h.stack({ Resources: { Child: nestedRow('child.json') } }),
    nested: new Map([['Child', child]]),
    assemblyDir: dir,
  };
  return { request, dir };
}

describe("the nested-stack provider's own walk", () => {
  it('refuses a cycle under its row before the first nested level deploys: nothing of the child is made', async () => {
    const { request } = parentOf({ 'child.json': { Resources: { Again: nestedRow('child.json') } } });
    const error = await (await h.engine()).deploy(request, options).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    const failure = failureOf(error);
    expect(failure.codes).toContain('NESTED_STACK_CYCLE');
    expect(failure.message).toMatch(
      /^NestedStackProvider: Nested stack .*Child~Again .* cycle\. Refusing to deploy any level of it\.$/s,
    );
    expect(h.cloud.calls).toEqual([]);
    expect(
      await h.backend.store.read({ stackName: `${request.stateName}/Child`, region: request.region }),
    ).toBeUndefined();
  });

  it('refuses a grandchild template that is missing from the assembly', async () => {
    const { request } = parentOf({ 'child.json': { Resources: { Grand: nestedRow('grand.json') } } });
    const failure = failureOf(
      await (await h.engine()).deploy(request, options).then(
        () => undefined,
        (thrown: unknown) => thrown,
      ),
    );
    expect(failure.codes).toContain('NESTED_TEMPLATE_MISSING');
    expect(failure.message).toMatch(/^NestedStackProvider: .*Refusing to deploy any level of it\.$/s);
    expect(h.cloud.calls).toEqual([]);
  });

  it('a sound tree walks clean and deploys', async () => {
    const { request } = parentOf({ 'child.json': leaf });
    await (await h.engine()).deploy(request, options);
    expect(h.cloud.calls.map((call) => `${call.action}:${call.logicalId}`)).toEqual(['create:Inner']);
  });
});
