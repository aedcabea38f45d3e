import { describe, expect, it } from 'vitest';
import { buildDependencyGraph, DependencyGraph, parseTemplate } from '../../src/template/index.js';
import { expectTemplateError } from './helpers.js';

function graphOf(
  resources: Record<string, unknown>,
  conditions: Record<string, boolean> = {},
  parameters = {},
) {
  const template = parseTemplate(
    JSON.stringify({
      Parameters: { Env: { Type: 'String', Default: 'x' }, ...parameters },
      Conditions: Object.fromEntries(Object.keys(conditions).map((c) => [c, { 'Fn::Equals': [1, 1] }])),
      Resources: resources,
    }),
  );
  return buildDependencyGraph(template, new Map(Object.entries(conditions)));
}

const T = 'AWS::Test::Thing';

describe('dependency edges', () => {
  it.each<[string, unknown, string[]]>([
    ['Ref', { P: { Ref: 'B' } }, ['B']],
    ['GetAtt list form', { P: { 'Fn::GetAtt': ['B', 'Arn'] } }, ['B']],
    ['GetAtt string form', { P: { 'Fn::GetAtt': 'B.Endpoint.Address' } }, ['B']],
    ['Sub ${Res}', { P: { 'Fn::Sub': '${B}-x' } }, ['B']],
    ['Sub ${Res.Attr}', { P: { 'Fn::Sub': 'arn:${B.Arn}' } }, ['B']],
    ['Sub var map value', { P: { 'Fn::Sub': ['${X}', { X: { Ref: 'B' } }] } }, ['B']],
    ['Sub ${!Literal} is no edge', { P: { 'Fn::Sub': '${!B}' } }, []],
    ['Sub name defined in var map is no edge', { P: { 'Fn::Sub': ['${B}', { B: 'literal' }] } }, []],
    ['Sub parameter and pseudo are no edges', { P: { 'Fn::Sub': '${Env}-${AWS::Region}' } }, []],
    ['Ref parameter is no edge', { P: { Ref: 'Env' } }, []],
    [
      'nested in lists and objects',
      { P: [{ Q: { 'Fn::Join': ['', [{ Ref: 'B' }, { Ref: 'C' }]] } }] },
      ['B', 'C'],
    ],
    ['both Fn::If branches count', { P: { 'Fn::If': ['On', { Ref: 'B' }, { Ref: 'C' }] } }, ['B', 'C']],
    ['repeated references give one edge', { P: [{ Ref: 'B' }, { 'Fn::GetAtt': ['B', 'Arn'] }] }, ['B']],
  ])('%s', (_name, properties, expected) => {
    const graph = graphOf(
      { A: { Type: T, Properties: properties }, B: { Type: T }, C: { Type: T } },
      { On: true },
    );
    expect(graph.dependencies('A')).toEqual(expected);
  });

  it('adds DependsOn as a string or a list', () => {
    const graph = graphOf({
      A: { Type: T, DependsOn: 'B' },
      B: { Type: T, DependsOn: ['C'] },
      C: { Type: T },
    });
    expect(graph.dependencies('A')).toEqual(['B']);
    expect(graph.dependencies('B')).toEqual(['C']);
    expect(graph.dependents('C')).toEqual(['B']);
  });

  it('ignores Metadata and Condition but reads UpdatePolicy', () => {
    const graph = graphOf(
      {
        A: { Type: T, Condition: 'On', Metadata: { Ref: 'B' }, UpdatePolicy: { X: { Ref: 'C' } } },
        B: { Type: T },
        C: { Type: T },
      },
      { On: true },
    );
    expect(graph.dependencies('A')).toEqual(['C']);
  });

  it('leaves resources removed by a false condition out of the graph', () => {
    const graph = graphOf({ A: { Type: T, Condition: 'Off' }, B: { Type: T } }, { Off: false });
    expect(graph.nodes).toEqual(['B']);
    expect(graph.has('A')).toBe(false);
  });

  it('allows a removed resource on the untaken Fn::If branch', () => {
    const graph = graphOf(
      {
        A: { Type: T, Properties: { P: { 'Fn::If': ['Off', { Ref: 'B' }, { Ref: 'AWS::NoValue' }] } } },
        B: { Type: T, Condition: 'Off' },
      },
      { Off: false },
    );
    expect(graph.dependencies('A')).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'DependsOn a removed resource',
      { A: { Type: T, DependsOn: 'B' }, B: { Type: T, Condition: 'Off' } },
      ['Resources.A.DependsOn', 'A depends on B', 'condition Off is false'],
    ],
    [
      'Ref to a removed resource',
      { A: { Type: T, Properties: { P: { Ref: 'B' } } }, B: { Type: T, Condition: 'Off' } },
      ['Resources.A.Properties.P', 'A references (Ref) B', 'condition Off is false'],
    ],
    [
      'taken Fn::If branch to a removed resource',
      {
        A: { Type: T, Properties: { P: { 'Fn::If': ['On', { Ref: 'B' }, 'x'] } } },
        B: { Type: T, Condition: 'Off' },
      },
      ['Fn::If[1]', 'A references (Ref) B'],
    ],
    [
      'DependsOn a missing resource',
      { A: { Type: T, DependsOn: 'Nope' } },
      ['A depends on "Nope"', 'not a resource of this template'],
    ],
    [
      'GetAtt a missing resource',
      { A: { Type: T, Properties: { P: { 'Fn::GetAtt': ['Nope', 'Arn'] } } } },
      ['A references (Fn::GetAtt) "Nope"', 'not a resource or parameter'],
    ],
    [
      'Sub a missing name',
      { A: { Type: T, Properties: { P: { 'Fn::Sub': '${Nope.Arn}' } } } },
      ['A references (Fn::Sub) "Nope"'],
    ],
  ])('%s is INVALID_REFERENCE naming both', (_name, resources, parts) => {
    expectTemplateError(() => graphOf(resources, { On: true, Off: false }), 'INVALID_REFERENCE', ...parts);
  });

  it('reports a cycle in order', () => {
    expectTemplateError(
      () =>
        graphOf({
          A: { Type: T, DependsOn: 'B' },
          B: { Type: T, Properties: { P: { 'Fn::Sub': '${C.Arn}' } } },
          C: { Type: T, Properties: { P: { Ref: 'A' } } },
        }),
      'DEPENDENCY_CYCLE',
      'dependency cycle: A → B → C → A',
    );
  });

  it('reports a self-reference as a cycle', () => {
    expectTemplateError(
      () => graphOf({ A: { Type: T, Properties: { P: { Ref: 'A' } } } }),
      'DEPENDENCY_CYCLE',
      'A → A',
    );
  });
});

describe('DependencyGraph', () => {
  // D → B → A, D → C → A, E alone: a diamond plus an island.
  const graph = DependencyGraph.fromEdges(
    ['A', 'B', 'C', 'D', 'E'],
    [
      ['B', 'A'],
      ['C', 'A'],
      ['D', 'B'],
      ['D', 'C'],
    ],
  );

  it('orders dependencies first, deterministically', () => {
    expect(graph.topologicalOrder()).toEqual(['A', 'E', 'B', 'C', 'D']);
    expect(
      DependencyGraph.fromEdges(
        ['A', 'B', 'C', 'D', 'E'],
        [
          ['D', 'C'],
          ['D', 'B'],
          ['C', 'A'],
          ['B', 'A'],
        ],
      ).topologicalOrder(),
    ).toEqual(['A', 'E', 'B', 'C', 'D']);
  });

  it('deletes in reverse order', () => {
    expect(graph.deletionOrder()).toEqual(['D', 'C', 'B', 'E', 'A']);
  });

  it('computes the critical path by count and by weight', () => {
    expect(graph.criticalPathLength()).toBe(3);
    expect(
      graph.criticalPathLength(
        new Map([
          ['C', 10],
          ['E', 2],
        ]),
      ),
    ).toBe(12);
    expect(graph.criticalPathLength((n) => (n === 'E' ? 50 : 1))).toBe(50);
    expect(DependencyGraph.fromEdges([], []).criticalPathLength()).toBe(0);
  });

  it('computes the longest remaining path from a node', () => {
    expect(graph.longestRemainingPath('A')).toBe(3);
    expect(graph.longestRemainingPath('B')).toBe(2);
    expect(graph.longestRemainingPath('D')).toBe(1);
    expect(graph.longestRemainingPath('A', new Map([['C', 5]]))).toBe(7);
  });

  it('lists direct and transitive dependents', () => {
    expect(graph.dependents('A')).toEqual(['B', 'C']);
    expect(graph.dependencies('D')).toEqual(['B', 'C']);
    expect(graph.transitiveDependents('A')).toEqual(['B', 'C', 'D']);
  });

  it('rejects unknown nodes', () => {
    expect(() => graph.dependencies('Z')).toThrow('"Z" is not in the dependency graph');
    expect(() => DependencyGraph.fromEdges(['A'], [['A', 'Z']])).toThrow('outside the graph');
  });

  it('handles long chains without recursion limits', () => {
    const n = 20_000;
    const nodes = Array.from({ length: n }, (_, i) => `R${i}`);
    const edges = nodes.slice(1).map((node, i) => [node, nodes[i]!] as const);
    const chain = DependencyGraph.fromEdges(nodes, edges);
    expect(chain.criticalPathLength()).toBe(n);
    expect(chain.topologicalOrder()[n - 1]).toBe(`R${n - 1}`);
  });
});
