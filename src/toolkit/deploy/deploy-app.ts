import { stacksFailed } from '../stacks/stacks-failed.js';
import {
  checkAssembly,
  collectAnnotations,
  enforceAnnotations,
  selectStacks,
  type CloudAssembly,
  type StackArtifact,
} from '../../assembly/index.js';
import { CrossStackRun } from '../../engine/deploy/index.js';
import { walkDag } from '../../dag/index.js';
import type { ApprovalLevel } from '../../plan/index.js';
import type { StackDeployResult } from '../../engine/index.js';
import { eventMessage, ioMessage } from '../../messages/index.js';
import { interruptedError, throwIfInterrupted } from '../../interrupted.js';
import { callerOf } from '../session/caller.js';
import { assetBucketName } from '../../state/bucket-names.js';
import { assetPublisher } from '../bootstrap/asset-storage.js';
import { definesNoResources, withoutNeverDeployedEmptyStacks } from '../stacks/empty-stacks.js';
import { preflightStacks } from './deploy-preflight.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import { note, warn, type ToolkitIo } from '../io.js';
import { validateDeploySet } from '../stacks/preflight.js';
import { refuseUnknownPinnedIds, routingOptions, type RoutingFlags } from '../stacks/routing-flags.js';
import { withPreviousParameters } from '../stacks/previous-parameters.js';
import { refuseMissingParameters, stackParameters } from '../stacks/stack-parameters.js';
import { parseTagFlags } from '../stacks/stack-tags.js';
import { reapplyRecorded } from './reapply-recorded.js';
import { checkNotificationTopics, StackNotifier } from './stack-notifications.js';
import { recreateTargets, type RecreateFlags } from './recreate-targets.js';
import { refuseCrossEnvironmentReferences } from '../stacks/cross-environment-references.js';
import { accountSessions, stackEnvironment, stackRequest, stackTarget } from '../stacks/stack-requests.js';
import { CDKD_VERSION } from '../../version.js';
import {
  engineSavedPlan,
  planFlags,
  readSavedPlan,
  refuseMovedInputs,
  savedPlanDocument,
  stackBasis,
  writeSavedPlan,
  type PlannedStackEntry,
} from './saved-plan/index.js';

export interface DeployAppInput extends ToolkitIo {
  session: Session;
  assembly: CloudAssembly;
  patterns: string[];
  all: boolean;
  /** Only the named stacks, not the stacks they depend on. */
  exclusively: boolean;
  strict: boolean;
  concurrency: number;
  stackConcurrency: number;
  dryRun: boolean;
  forceStatefulRecreation: boolean;
  /** --replace: a replacement colliding on the name the old resource holds deletes it first. */
  replace?: boolean;
  /** `--recreate-via-cc-api` / `--recreate-via-sdk-provider`: logical ids to destroy and re-create on that layer. */
  recreateVia?: RecreateFlags;
  /** False (`--no-rollback`): a failed deploy is left as it stopped, its journal kept. */
  rollback?: boolean;
  /** `--fix-forward`: deploy over stacks whose last rollback failed. */
  fixForward?: boolean;
  /** False (`--no-wait`): an attribute read live from a resource still coming up is refused, not waited for. */
  wait?: boolean;
  parameters: string[];
  /** `--tags KEY=VALUE`: the tags every selected stack is deployed with, instead of the app's. */
  tags?: string[];
  /** --prefix-user-supplied-names, resolved through its fallbacks. */
  prefixUserSuppliedNames?: boolean;
  signal?: AbortSignal;
  /** --prefer-sdk-route and --pin-cc-api. */
  routing?: RoutingFlags;
  /** `cdkd diff --out`: a dry run writes its plans and what they were made from to this file. */
  savePlanTo?: string;
  /** `cdkd deploy --plan`: deploy exactly the plan this file holds, or refuse before touching anything. */
  planFile?: string;
  /** `--require-approval` (cdk.json's `requireApproval`), resolved: which changes stop to ask. */
  requireApproval?: ApprovalLevel;
  /** `--force`: after each stack deploys, what AWS holds apart from its record is written back. */
  force?: boolean;
  /** False (`--no-previous-parameters`): a parameter not given takes its Default, not the recorded value. */
  previousParameters?: boolean;
  /** `--notification-arns`: SNS topics every stack's events go to, besides the app's `notificationArns`. */
  notificationArns?: string[];
  /** `--asset-parallelism`: assets built or uploaded at once per stack. */
  assetParallelism?: number;
  /** `--verbose`: repeated asset build commands are shown too. */
  verbose?: boolean;
  /** Each stack's start event carries its schedule and past times, for the live view's ETA. */
  estimate?: boolean;
}

/**
 * `cdkd deploy`: select and check the stacks (one with no resources that was never deployed
 * is skipped with a note, as the CDK CLI does), publish their assets, then deploy them
 * dependencies first, independent stacks in parallel.
 */
export async function deployApp(input: DeployAppInput): Promise<StackDeployResult[]> {
  const saved = input.planFile === undefined ? undefined : await readSavedPlan(input.planFile);
  const stacks = selectStacks(input.assembly, {
    patterns: input.patterns,
    all: input.all,
    defaultSelection: 'only-single',
    extend: input.exclusively ? 'none' : 'upstream',
  });
  enforceAnnotations(collectAnnotations(stacks), { strict: input.strict });
  const checked = checkAssembly(input.assembly, stacks);
  const recreateVia = input.recreateVia && recreateTargets(input.recreateVia, checked.stacks);
  for (const warning of checked.warnings) warn(input, warning);
  const callerRegion = await input.session.region();
  // A stack with no resources is checked once it is known whether it was ever deployed.
  const empty = new Set(checked.stacks.filter((entry) => definesNoResources(entry.stack.template)));
  for (const warning of validateDeploySet(
    checked.stacks.filter((entry) => !empty.has(entry)),
    callerRegion,
  ))
    warn(input, warning);
  refuseUnknownPinnedIds(input.routing?.pinCcApi, checked.stacks);
  const routing = routingOptions(input.routing ?? {});
  const previousParameters = input.previousParameters !== false;
  // A value missing now may be carried from the stack's record, read once credentials are known.
  const parameters = stackParameters(stacks, input.parameters, { checkMissing: !previousParameters });
  for (const line of parameters.notes) note(input, line);

  const credentials = Date.now();
  const caller = await callerOf(input.session, input.signal);
  void input.io.notify(
    eventMessage(input.command, {
      kind: 'phase',
      stack: 'cdkd',
      phase: 'credentials',
      durationMs: Date.now() - credentials,
    }),
  );
  const targets = new Map(stacks.map((stack) => [stack.displayName, stackTarget(stack, caller)]));
  refuseCrossEnvironmentReferences(checked.stacks, input.assembly.stacks, (stack) =>
    stackEnvironment(stack, caller),
  );
  // Stacks in other accounts go through each account's deploy role, assumed before anything starts.
  const sessions = await accountSessions(input.session, targets.values());
  const deploying = await withoutNeverDeployedEmptyStacks(
    (entry) => sessions.get(targets.get(entry.stack.displayName)!.accountId)!,
    checked.stacks,
    (entry) => targets.get(entry.stack.displayName)!.region,
    input,
  );
  validateDeploySet(
    deploying.filter((entry) => empty.has(entry)),
    callerRegion,
  );
  const notified = deploying
    .map(({ stack }) => ({
      stackName: stack.stackName,
      ...targets.get(stack.displayName)!,
      topics: [...new Set([...stack.notificationArns, ...(input.notificationArns ?? [])])],
    }))
    .filter((stack) => stack.topics.length > 0);
  if (notified.length > 0) await checkNotificationTopics(input.session, notified);
  const notifier =
    notified.length > 0 && !input.dryRun
      ? new StackNotifier(input.session, notified, { ...input, rollback: input.rollback ?? true })
      : undefined;
  if (previousParameters) {
    await withPreviousParameters(
      input.session,
      deploying.map(({ stack }) => ({
        displayName: stack.displayName,
        stateName: stack.stackName,
        template: stack.template,
        target: targets.get(stack.displayName)!,
      })),
      parameters.values,
    );
    refuseMissingParameters(stacks, parameters.values);
  }
  const engine = await openEngine(input.session, {
    io: notifier ? notifier.io(input.io) : input.io,
    command: input.command,
    regions: [...targets.values()].map((target) => target.region),
    routes: [...targets.values()],
  });
  throwIfInterrupted(input.signal, 'before the first stack started; nothing was changed');

  const publish = assetPublisher(input.session, input, {
    ...(input.assetParallelism ? { concurrency: input.assetParallelism } : {}),
    ...(input.verbose ? { verbose: true } : {}),
  });
  const crossStack = crossStackRun(deploying.map(({ stack }) => stack));
  const options = {
    concurrency: input.concurrency,
    dryRun: input.dryRun,
    forceStatefulRecreation: input.forceStatefulRecreation,
    ...(input.replace ? { replace: true } : {}),
    ...(recreateVia ? { recreateVia } : {}),
    rollback: input.rollback ?? true,
    ...(input.fixForward ? { fixForward: true } : {}),
    ...(input.wait === false ? { wait: false } : {}),
    ...(input.prefixUserSuppliedNames ? { prefixUserSuppliedNames: true } : {}),
    ...(input.estimate ? { estimate: true } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.requireApproval && !input.dryRun ? { requireApproval: input.requireApproval } : {}),
    routing,
    crossStack,
  };
  const tagOverride = input.tags && input.tags.length > 0 ? parseTagFlags(input.tags) : undefined;
  const tagged = (stack: StackArtifact) => (tagOverride ? { ...stack, tags: tagOverride } : stack);
  const requestFor = (displayName: string, bucket: string) => {
    const { stack, nested } = deploying.find((entry) => entry.stack.displayName === displayName)!;
    const target = targets.get(displayName)!;
    return {
      ...stackRequest(tagged(stack), nested, target, bucket, parameters.values.get(displayName)!),
      assemblyDir: input.assembly.directory,
    };
  };
  const plannedBucket = (displayName: string) => {
    const target = targets.get(displayName)!;
    return assetBucketName(target.accountId, target.region);
  };
  const bases = new Map(
    deploying.map(({ stack }) => [
      stack.displayName,
      stackBasis(stack, requestFor(stack.displayName, plannedBucket(stack.displayName))),
    ]),
  );
  const current = (stateEtags: ReadonlyMap<string, string | null>) => ({
    cdkdVersion: CDKD_VERSION,
    flags: planFlags(input),
    stacks: [...bases.values()],
    stateEtags,
  });
  if (saved) refuseMovedInputs(input.planFile!, saved, current(new Map()));
  // A dry run touches nothing, and one stack refuses before it is touched on its own, except
  // under a saved plan, whose state ETags are checked before any asset is published.
  let approvalAsked = new Set<string>();
  if (!input.dryRun && (deploying.length > 1 || saved)) {
    const preflight = await preflightStacks(
      engine,
      deploying.map(({ stack }) => requestFor(stack.displayName, plannedBucket(stack.displayName))),
      options,
    );
    approvalAsked = preflight.approvalAsked;
    // Every stack's state is checked before the first is touched; each again under its lock.
    const displayOf = new Map(deploying.map(({ stack }) => [stack.stackName, stack.displayName]));
    const etags = new Map(
      preflight.planned.map((result) => [displayOf.get(result.stackName)!, result.stateEtag ?? null]),
    );
    if (saved) refuseMovedInputs(input.planFile!, saved, current(etags));
  }
  const planned: PlannedStackEntry[] = [];

  const results: StackDeployResult[] = [];
  const selected = new Set(deploying.map(({ stack }) => stack.displayName));
  const outcome = await walkDag(
    deploying.map(({ stack }) => ({
      id: stack.displayName,
      dependsOn: stack.dependencies.filter((dependency) => selected.has(dependency)),
    })),
    async (displayName) => {
      const { stack } = deploying.find((entry) => entry.stack.displayName === displayName)!;
      const target = targets.get(displayName)!;
      const bucket = input.dryRun ? plannedBucket(displayName) : await publish(stack, target);
      throwIfInterrupted(
        input.signal,
        `after publishing the assets of ${stack.displayName}; it was not deployed`,
      );
      const request = requestFor(displayName, bucket);
      const result = await engine.deploy(
        request,
        saved
          ? { ...options, approvalAsked, savedPlan: engineSavedPlan(input.planFile!, saved, displayName) }
          : { ...options, approvalAsked },
      );
      results.push(result);
      if (input.force) await reapplyRecorded(engine, request, { ...input, dryRun: input.dryRun });
      planned.push({
        basis: bases.get(displayName)!,
        stateEtag: result.stateEtag ?? null,
        operations: result.plan.operations,
      });
      // As each stack finishes, so a caller can show the stacks done when another fails.
      void input.io.notify(ioMessage(input.command, 'CDKD_R2003', `${result.stackName} done`, result));
    },
    {
      concurrency: input.stackConcurrency,
      priority: () => 0,
      ...(input.signal ? { signal: input.signal } : {}),
    },
  );
  await notifier?.flush();
  // Old copies held for importing stacks go once every one of them deployed; else they stay in state.
  const deployed = new Set(results.map((result) => result.stackName));
  for (const held of crossStack.held()) {
    if (held.importers.every((importer) => deployed.has(importer)))
      await engine.releaseHeld(held.request, deployed, options);
  }
  if (outcome.failed.length > 0) throw stacksFailed(outcome, 'deployed');
  if (input.signal?.aborted) throw interruptedError(input.signal, notDeployed(outcome.notStarted));
  if (input.savePlanTo !== undefined && input.dryRun) {
    const order = [...bases.keys()];
    planned.sort((a, b) => order.indexOf(a.basis.displayName) - order.indexOf(b.basis.displayName));
    await writeSavedPlan(input.savePlanTo, savedPlanDocument(planFlags(input), planned, new Date()));
  }
  return results;
}

/** The run's stacks as the engine sees them: by stack name, each with the stacks it deploys after. */
function crossStackRun(stacks: readonly StackArtifact[]): CrossStackRun {
  const byDisplay = new Map(stacks.map((stack) => [stack.displayName, stack]));
  const upstream = new Map<string, Set<string>>();
  const after = (stack: StackArtifact): Set<string> => {
    const known = upstream.get(stack.stackName);
    if (known) return known;
    const found = new Set<string>();
    upstream.set(stack.stackName, found);
    for (const dependency of stack.dependencies) {
      const artifact = byDisplay.get(dependency);
      if (!artifact) continue;
      found.add(artifact.stackName);
      for (const name of after(artifact)) found.add(name);
    }
    return found;
  };
  for (const stack of stacks) after(stack);
  return new CrossStackRun(upstream, new Map(stacks.map((stack) => [stack.stackName, stack.template])));
}

function notDeployed(notStarted: readonly string[]): string {
  if (notStarted.length === 0) return 'as the last stack finished (every selected stack was deployed)';
  return `before ${notStarted.join(', ')} started (not deployed); the stacks before them finished`;
}
