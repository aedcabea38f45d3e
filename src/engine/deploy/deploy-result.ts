import type { Plan, StatefulVerdict } from '../../plan/index.js';
import type { OutputRecord } from '../../state/index.js';
import type { FailedOutput, OutputChange } from '../planning/index.js';

/** What deploying one stack came to; its own file so the deploy's steps can name it without importing the deploy. */
export interface StackDeployResult {
  stackName: string;
  plan: Plan;
  outputs: Record<string, OutputRecord>;
  /** False when the deploy found nothing to do and wrote nothing. */
  changed: boolean;
  /** Resources only the journal records that this deploy could not act on (exit 2). */
  unaddressed: string[];
  /** The stateful guard's verdicts, for the DATA LOSS / UNKNOWN rows of a printed plan. */
  stateful?: StatefulVerdict[];
  /** Outputs an attribute read live could not resolve (left out of `outputs`). */
  failedOutputs?: FailedOutput[];
  /** A dry run's changes to the recorded outputs (`cdkd diff`). */
  outputChanges?: OutputChange[];
}
