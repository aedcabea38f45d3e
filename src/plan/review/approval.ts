import type { ApprovalLevel } from '../../assembly/index.js';

export type { ApprovalLevel };

/** What a stack's deploy would do, as far as approval is concerned. */
export interface ApprovalFacts {
  /** Any resource created, updated, replaced or deleted. */
  changes: boolean;
  /** IAM statements or managed policies added, Deny statements removed, security-group rules added. */
  broadened: boolean;
}

/**
 * Whether a deploy needs approval, as the CDK CLI decides it: `never` never, `any-change` for
 * any change at all, `broadening` only when permissions widen.
 */
export function approvalNeeded(level: ApprovalLevel, facts: ApprovalFacts): boolean {
  switch (level) {
    case 'never':
      return false;
    case 'any-change':
      return facts.changes;
    case 'broadening':
      return facts.broadened;
  }
}
