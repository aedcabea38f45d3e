import type { ResourceRecord } from '../state/index.js';

/** How one step ended: `warn` makes the run exit 2; a survivor is a resource left running untracked. */
export interface StepOutcome {
  logicalId: string;
  status: 'succeeded' | 'skipped' | 'failed';
  warn: boolean;
  message: string;
  code?: string;
  survivor?: { physicalId: string; managedBy: ResourceRecord['provisionedBy'] };
  /** Printed as warnings; they do not change the exit code (a re-create's name, spec 001). */
  warnings?: string[];
}

export const succeeded = (
  logicalId: string,
  message: string,
  extra: Partial<StepOutcome> = {},
): StepOutcome => ({
  logicalId,
  status: 'succeeded',
  warn: false,
  message,
  ...extra,
});
