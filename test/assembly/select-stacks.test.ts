import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAssembly } from '../../src/assembly/read-assembly.js';
import { orderByDependencies, selectStacks, type StackSelector } from '../../src/assembly/select-stacks.js';
import type { CloudAssembly } from '../../src/assembly/types.js';
import { tempDir, writeAssembly, type StackSpec } from './helpers.js';

/** Top-level Network <- Data <- Api, plus a Stage "Prod" holding Prod/Web and Prod/Db. */
function appAssembly(): CloudAssembly {
  const root = tempDir();
  writeAssembly(join(root, 'assembly-Prod'), [
    { id: 'ProdDb', displayName: 'Prod/Db', stackName: 'Prod-Db' },
    { id: 'ProdWeb', displayName: 'Prod/Web', stackName: 'Prod-Web', dependencies: ['ProdDb'] },
  ]);
  writeAssembly(
    root,
    [{ id: 'Api', dependencies: ['Data'] }, { id: 'Data', dependencies: ['Network'] }, { id: 'Network' }],
    { nested: { 'assembly-Prod': { directoryName: 'assembly-Prod', displayName: 'Prod' } } },
  );
  return readAssembly(root);
}

function select(selector: Partial<StackSelector>, assembly = appAssembly()): string[] {
  return selectStacks(assembly, { defaultSelection: 'only-single', extend: 'none', ...selector }).map(
    (stack) => stack.displayName,
  );
}

describe('selectStacks', () => {
  it.each([
    { name: 'by stack name', patterns: ['Data'], expected: ['Data'] },
    { name: 'by CloudFormation name of a Stage stack', patterns: ['Prod-Web'], expected: ['Prod/Web'] },
    { name: 'by display path', patterns: ['Prod/Db'], expected: ['Prod/Db'] },
    {
      name: "by wildcard '*' (top level only, like the CDK CLI)",
      patterns: ['*'],
      expected: ['Network', 'Data', 'Api'],
    },
    { name: "by wildcard 'Prod/*'", patterns: ['Prod/*'], expected: ['Prod/Db', 'Prod/Web'] },
    {
      name: "by wildcard '**'",
      patterns: ['**'],
      expected: ['Network', 'Data', 'Api', 'Prod/Db', 'Prod/Web'],
    },
    { name: 'by partial wildcard', patterns: ['N*'], expected: ['Network'] },
  ])('selects $name', ({ patterns, expected }) => {
    expect(select({ patterns })).toEqual(expected);
  });

  it('selects the root assembly with --all, in dependency order', () => {
    expect(select({ all: true })).toEqual(['Network', 'Data', 'Api']);
  });

  it('adds upstream dependencies by default', () => {
    expect(select({ patterns: ['Api'], extend: undefined })).toEqual(['Network', 'Data', 'Api']);
  });

  it('selects the only stack when none is named', () => {
    const assembly = readAssembly(writeAssembly(tempDir(), [{ id: 'Solo' }]));
    expect(select({}, assembly)).toEqual(['Solo']);
  });

  it('refuses to guess among several stacks, listing them', () => {
    expect(() => select({})).toThrow(
      expect.objectContaining({
        code: 'STACK_SELECTION_REQUIRED',
        message: expect.stringContaining('Api, Data, Network, Prod/Db, Prod/Web'),
        hint: expect.stringContaining('--all'),
      }),
    );
  });

  it("selects every stack when the command's default is 'all'", () => {
    expect(select({ defaultSelection: 'all' })).toHaveLength(5);
  });

  it('refuses a pattern that matches nothing', () => {
    expect(() => select({ patterns: ['Nope'] })).toThrow(
      expect.objectContaining({ code: 'STACK_NOT_FOUND' }),
    );
  });

  it('refuses an assembly without stacks', () => {
    const assembly = readAssembly(writeAssembly(tempDir(), []));
    expect(() => select({}, assembly)).toThrow(expect.objectContaining({ code: 'NO_STACKS' }));
  });
});

describe('orderByDependencies', () => {
  function stacks(specs: StackSpec[]) {
    return readAssembly(writeAssembly(tempDir(), specs)).stacks;
  }

  it('puts each stack after the stacks it depends on, keeping manifest order otherwise', () => {
    const ordered = orderByDependencies(
      stacks([
        { id: 'C', dependencies: ['A', 'B'] },
        { id: 'B', dependencies: ['A'] },
        { id: 'A' },
        { id: 'D' },
      ]),
    );
    expect(ordered.map((s) => s.displayName)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('refuses a dependency cycle', () => {
    expect(() =>
      orderByDependencies(
        stacks([
          { id: 'A', dependencies: ['B'] },
          { id: 'B', dependencies: ['A'] },
        ]),
      ),
    ).toThrow(expect.objectContaining({ code: 'STACK_DEPENDENCY_CYCLE' }));
  });
});
