import type { DeployOptions, Engine, StackDeployResult, StackRequest } from '../../engine/index.js';
import { throwIfInterrupted } from '../../interrupted.js';
import type { ApprovalLevel } from '../../plan/index.js';
import { stackNotInState, type GenerationDocument, type KeptGeneration } from '../../state/index.js';
import { callerOf } from '../session/caller.js';
import type { ToolkitIo } from '../io.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import { stackParameters } from '../stacks/stack-parameters.js';
import { chooseGeneration } from './generation-choice.js';
import {
  refuseGoneAssets,
  refuseMaskedParameters,
  refuseNestedStacks,
  refusePendingJournal,
} from './undo-checks.js';

export { chooseGeneration } from './generation-choice.js';

export interface UndoTarget {
  session: Session;
  stackName: string;
  region?: string;
  signal?: AbortSignal;
}

export interface UndoInput extends UndoTarget, ToolkitIo {
  /** `--to N`: that generation; otherwise the one before the current. */
  to?: number;
  /** `--parameters`: values for NoEcho parameters the generation keeps masked. */
  parameters: string[];
  concurrency: number;
  forceStatefulRecreation: boolean;
  requireApproval?: ApprovalLevel;
}

/** A planned undo: the generation returned to, the request that deploys it, and its plan as `diff` shows one. */
export interface PreparedUndo {
  generation: GenerationDocument;
  request: StackRequest;
  review: StackDeployResult;
  engine: Engine;
  options: DeployOptions;
}

/**
 * `cdkd undo --list`: the generations the state bucket keeps, newest first, of the stack named,
 * or of every stack cdkd has state for in the region when none is.
 */
export async function listGenerations(
  input: Omit<UndoTarget, 'stackName'> & { stackName?: string },
): Promise<{ stackName: string; kept: KeptGeneration[] }[]> {
  const region = input.region ?? (await callerOf(input.session, input.signal)).region;
  const backend = await input.session.stateBackend();
  const names =
    input.stackName !== undefined
      ? [input.stackName]
      : (await backend.store.list()).filter((ref) => ref.region === region).map((ref) => ref.stackName);
  return Promise.all(
    names.map(async (stackName) => {
      const kept = await backend.generations.list({ stackName, region });
      return { stackName, kept: kept.sort((a, b) => (b.document?.number ?? 0) - (a.document?.number ?? 0)) };
    }),
  );
}

/**
 * `cdkd undo` up to the deploy: picks the generation, refuses (before anything changes) a stack
 * with a pending rollback journal, a generation whose assets are gone, nested stacks or masked
 * NoEcho parameters with no value given, then plans it as `cdkd diff` does.
 */
export async function prepareUndo(input: UndoInput): Promise<PreparedUndo> {
  const caller = await callerOf(input.session, input.signal);
  const region = input.region ?? caller.region;
  const ref = { stackName: input.stackName, region };
  const backend = await input.session.stateBackend();
  const state = await backend.store.read(ref);
  if (!state) throw stackNotInState(ref, backend.bucket);
  refusePendingJournal(input.stackName, (await backend.journals.read(ref))?.document);
  const generation = chooseGeneration(
    input.stackName,
    await backend.generations.list(ref),
    input.to,
    state.document,
  );
  refuseNestedStacks(input.stackName, generation);
  const parameters = stackParameters(
    [
      {
        stackName: input.stackName,
        displayName: input.stackName,
        template: generation.template,
        // A list parameter is sent as CloudFormation takes it: comma-delimited.
        parameters: Object.fromEntries(
          Object.entries(generation.parameters).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(',') : value,
          ]),
        ),
      },
    ],
    input.parameters,
  ).values.get(input.stackName)!;
  refuseMaskedParameters(input.stackName, generation, parameters);
  await refuseGoneAssets(await input.session.clients.s3(region), input.stackName, generation);
  const request: StackRequest = {
    stateName: input.stackName,
    stackName: input.stackName,
    region,
    accountId: caller.accountId,
    template: generation.template,
    parameters,
    tags: generation.tags,
    ...(generation.terminationProtection && { terminationProtection: true }),
    assets: generation.assets,
    undoneTo: generation.number,
  };
  const engine = await openEngine(input.session, { io: input.io, command: input.command, regions: [region] });
  const options: DeployOptions = {
    concurrency: input.concurrency,
    forceStatefulRecreation: input.forceStatefulRecreation,
    rollback: true,
    ...(input.requireApproval && { requireApproval: input.requireApproval }),
    ...(input.signal && { signal: input.signal }),
  };
  const review = await engine.deploy(request, { ...options, dryRun: true });
  return { generation, request, review, engine, options };
}

/** Deploys the prepared generation through the ordinary journaled deploy: its lock, approvals and data-loss guard. */
export async function applyUndo(prepared: PreparedUndo, signal?: AbortSignal): Promise<StackDeployResult> {
  throwIfInterrupted(signal, 'before the undo started; nothing was changed');
  return prepared.engine.deploy(prepared.request, prepared.options);
}
