import {
  checkAssembly,
  collectAnnotations,
  enforceAnnotations,
  selectStacks,
  type CloudAssembly,
} from '../assembly/index.js';
import { publishAssets } from '../assets/index.js';
import { walkDag } from '../engine/dag-walk.js';
import type { StackDeployResult } from '../engine/deploy-stack.js';
import type { EventSink } from '../engine/events.js';
import { assetBucketName } from '../state/bucket-names.js';
import { openEngine } from './provider-wiring.js';
import type { Session } from './session.js';
import { parametersFor, stackRequest, stackTarget } from './stack-requests.js';

export interface DeployAppInput {
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
  /** False (`--no-rollback`): a failed deploy is left as it stopped, its journal kept. */
  rollback?: boolean;
  parameters: string[];
  /** --prefix-user-supplied-names, resolved through its fallbacks. */
  prefixUserSuppliedNames?: boolean;
  events: EventSink;
  onWarning(message: string): void;
  signal?: AbortSignal;
}

/**
 * `cdkd deploy`: select and check the stacks, publish their assets, then
 * deploy them dependencies first, independent stacks in parallel.
 */
export async function deployApp(input: DeployAppInput): Promise<StackDeployResult[]> {
  const stacks = selectStacks(input.assembly, {
    patterns: input.patterns,
    all: input.all,
    defaultSelection: 'only-single',
    extend: input.exclusively ? 'none' : 'upstream',
  });
  enforceAnnotations(collectAnnotations(stacks), { strict: input.strict });
  const checked = checkAssembly(input.assembly, stacks);
  for (const warning of checked.warnings) input.onWarning(warning);

  const credentials = Date.now();
  const caller = { accountId: await input.session.accountId(), region: await input.session.region() };
  input.events({ kind: 'phase', stack: 'cdkd', phase: 'credentials', durationMs: Date.now() - credentials });
  const targets = new Map(stacks.map((stack) => [stack.displayName, stackTarget(stack, caller)]));
  const engine = await openEngine(input.session, {
    events: input.events,
    onWarning: input.onWarning,
    regions: [...targets.values()].map((target) => target.region),
  });

  const results: StackDeployResult[] = [];
  const selected = new Set(stacks.map((stack) => stack.displayName));
  const outcome = await walkDag(
    checked.stacks.map(({ stack }) => ({
      id: stack.displayName,
      dependsOn: stack.dependencies.filter((dependency) => selected.has(dependency)),
    })),
    async (displayName) => {
      const { stack, nested } = checked.stacks.find((entry) => entry.stack.displayName === displayName)!;
      const target = targets.get(displayName)!;
      const bucket = input.dryRun
        ? assetBucketName(target.accountId, target.region)
        : (
            await publishAssets({
              stacks: [stack],
              accountId: target.accountId,
              region: target.region,
              s3: await input.session.clients.s3(target.region),
            })
          ).bucket;
      const request = stackRequest(
        stack,
        nested,
        target,
        bucket,
        parametersFor(stack.stackName, input.parameters),
      );
      results.push(
        await engine.deploy(request, {
          concurrency: input.concurrency,
          dryRun: input.dryRun,
          forceStatefulRecreation: input.forceStatefulRecreation,
          rollback: input.rollback ?? true,
          ...(input.prefixUserSuppliedNames ? { prefixUserSuppliedNames: true } : {}),
          ...(input.signal ? { signal: input.signal } : {}),
        }),
      );
    },
    {
      concurrency: input.stackConcurrency,
      priority: () => 0,
      ...(input.signal ? { signal: input.signal } : {}),
    },
  );
  if (outcome.failed.length > 0) throw outcome.failed[0]!.error;
  return results;
}
