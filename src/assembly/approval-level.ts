/** `--require-approval`: which deploys stop for a person's approval (the CDK CLI's levels). */
export type ApprovalLevel = 'never' | 'any-change' | 'broadening';

export const APPROVAL_LEVELS: readonly ApprovalLevel[] = ['never', 'any-change', 'broadening'];
