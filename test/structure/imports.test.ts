import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, type ImportEdge } from './import-graph.js';
import { shapeViolations } from './shape-rules.js';

const src = join(import.meta.dirname, '../../src');

const edge = (from: string, to: string, typeOnly = false, dynamic = false): ImportEdge => ({
  from,
  to,
  dynamic,
  typeOnly,
});

describe('the shape rules', () => {
  it('find a cycle of files, and none in a chain', () => {
    const files = ['a.ts', 'b.ts', 'c.ts'];
    expect(importCycles(files, [edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts')])).toEqual([
      ['a.ts', 'b.ts', 'c.ts'],
    ]);
    expect(importCycles(files, [edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts')])).toEqual([]);
  });

  it('refuse an upward import, an import between folders on one floor, and allow a downward one', () => {
    expect(shapeViolations([edge('rollback/x.ts', 'engine/y.ts')])).toEqual([
      'upward import rollback -> engine: rollback/x.ts imports engine/y.ts',
    ]);
    expect(shapeViolations([edge('state/x.ts', 'template/y.ts')])).toHaveLength(1);
    expect(shapeViolations([edge('engine/x.ts', 'rollback/y.ts'), edge('cli/a.ts', 'errors.ts')])).toEqual(
      [],
    );
  });

  it('let only the sandbox command import the sandbox', () => {
    expect(shapeViolations([edge('cli/commands/sandbox.ts', 'sandbox/server.ts')])).toEqual([]);
    expect(shapeViolations([edge('cli/commands/deploy.ts', 'sandbox/server.ts')])).toEqual([
      'sandbox imported by cli/commands/deploy.ts (sandbox/server.ts)',
    ]);
  });

  it('take types from another folder only through its public face', () => {
    expect(shapeViolations([edge('cli/a.ts', 'state/lock.ts', true)])).toEqual([
      'deep type import into state/: cli/a.ts imports state/lock.ts (use state/index.ts)',
    ]);
    expect(
      shapeViolations([edge('cli/a.ts', 'state/index.ts', true), edge('state/a.ts', 'state/lock.ts', true)]),
    ).toEqual([]);
    // A value import names its module, so a command loads only what it runs.
    expect(shapeViolations([edge('cli/a.ts', 'toolkit/deploy/deploy-app.ts')])).toEqual([]);
    expect(shapeViolations([edge('engine/a.ts', 'state/lock.ts', true)])).toEqual([
      'deep type import into state/: engine/a.ts imports state/lock.ts (use state/index.ts)',
    ]);
    expect(shapeViolations([edge('toolkit/a.ts', 'engine/deploy/index.ts', true)])).toHaveLength(1);
    expect(shapeViolations([edge('engine/deploy/a.ts', 'engine/events.ts', true)])).toEqual([]);
    expect(shapeViolations([edge('ui/page/a.ts', 'toolkit/ui/ui-types.ts', true)])).toEqual([]);
    expect(
      shapeViolations([edge('sandbox/services/sns/a.ts', 'sandbox/ports/delivery.ts', true)]),
    ).toHaveLength(1);
  });

  it('name a top-level folder that has no floor', () => {
    expect(shapeViolations([edge('newfolder/a.ts', 'errors.ts')])).toEqual([
      'src/newfolder/ has no floor: place it in FLOORS',
    ]);
  });
});

describe('src/', () => {
  const { files, edges } = importGraph(src);

  it('holds no import cycle between files', () => {
    const cycles = importCycles(files, edges).map((cycle) => cycle.join(' <-> '));
    expect(cycles, `files importing each other:\n  ${cycles.join('\n  ')}`).toEqual([]);
  });

  it('imports only downward, the sandbox only from its command, other folders through their index', () => {
    const violations = shapeViolations(edges);
    expect(violations, violations.join('\n')).toEqual([]);
  });
});
