import { describe, expect, it } from 'vitest';
import { renderSecurityChanges, renderTable } from '../../../src/plan/index.js';

describe('renderSecurityChanges', () => {
  it("draws the CDK CLI's tables, only those with rows, a multi-line cell stacked in its row", () => {
    const text = renderSecurityChanges({
      iamStatements: [
        ['+', '*', 'Allow', 's3:*', 'AWS:${R}', '"Bool": {\n  "aws:SecureTransport": "true"\n}'],
        ['-', 'arn:b', 'Allow', 's3:GetObject', 'AWS:${R}', ''],
      ],
      managedPolicies: [],
      securityGroups: [['+', 'sg-1', 'In', 'TCP 22', 'Everyone (IPv4)']],
      broadened: true,
    });
    expect(text).toBe(
      [
        'IAM Statement Changes',
        '┌───┬──────────┬────────┬──────────────┬───────────┬─────────────────────────────────┐',
        '│   │ Resource │ Effect │ Action       │ Principal │ Condition                       │',
        '├───┼──────────┼────────┼──────────────┼───────────┼─────────────────────────────────┤',
        '│ + │ *        │ Allow  │ s3:*         │ AWS:${R}  │ "Bool": {                       │',
        '│   │          │        │              │           │   "aws:SecureTransport": "true" │',
        '│   │          │        │              │           │ }                               │',
        '├───┼──────────┼────────┼──────────────┼───────────┼─────────────────────────────────┤',
        '│ - │ arn:b    │ Allow  │ s3:GetObject │ AWS:${R}  │                                 │',
        '└───┴──────────┴────────┴──────────────┴───────────┴─────────────────────────────────┘',
        'Security Group Changes',
        '┌───┬───────┬─────┬──────────┬─────────────────┐',
        '│   │ Group │ Dir │ Protocol │ Peer            │',
        '├───┼───────┼─────┼──────────┼─────────────────┤',
        '│ + │ sg-1  │ In  │ TCP 22   │ Everyone (IPv4) │',
        '└───┴───────┴─────┴──────────┴─────────────────┘',
        '',
      ].join('\n'),
    );
  });

  it('says nothing when nothing security-relevant changes', () => {
    expect(
      renderSecurityChanges({ iamStatements: [], managedPolicies: [], securityGroups: [], broadened: false }),
    ).toBe('');
  });

  it('paints added rows and removed rows', () => {
    const paint = { added: (t: string) => `<g>${t}</g>`, removed: (t: string) => `<r>${t}</r>` };
    const table = renderTable(
      ['', 'X'],
      [
        ['+', 'a'],
        ['-', 'b'],
      ],
      paint,
    );
    expect(table).toContain('│ <g>+</g> │ <g>a</g> │');
    expect(table).toContain('│ <r>-</r> │ <r>b</r> │');
  });
});
