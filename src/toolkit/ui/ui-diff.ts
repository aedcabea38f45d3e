import type { CloudAssembly } from '../../assembly/index.js';
import { deployApp } from '../deploy/deploy-app.js';
import type { Session } from '../session/session.js';
import { silentIo } from '../io.js';
import type { PendingChange } from './ui-types.js';

/**
 * What `cdkd diff` would show for one stack of the app, as the graph overlays it: a dry run
 * that reads and plans, and writes nothing.
 */
export async function pendingChanges(
  session: Session,
  assembly: CloudAssembly,
  stackName: string,
): Promise<PendingChange[]> {
  const [result] = await deployApp({
    session,
    assembly,
    patterns: [stackName],
    all: false,
    exclusively: true,
    strict: false,
    concurrency: 1,
    stackConcurrency: 1,
    dryRun: true,
    forceStatefulRecreation: false,
    parameters: [],
    io: silentIo,
    command: 'ui',
  });
  const dataLoss = new Set(
    (result?.stateful ?? [])
      .filter((verdict) => verdict.outcome === 'data-loss')
      .map((verdict) => verdict.logicalId),
  );
  return (result?.plan.operations ?? []).flatMap((op) =>
    op.kind === 'no-op'
      ? []
      : [
          {
            logicalId: op.logicalId,
            kind: op.kind,
            type: op.type,
            reason: op.reason,
            dependsOn: op.dependsOn,
            ...(dataLoss.has(op.logicalId) ? { dataLoss: true as const } : {}),
          },
        ],
  );
}
