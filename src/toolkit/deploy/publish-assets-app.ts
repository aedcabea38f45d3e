import { selectStacks, type CloudAssembly } from '../../assembly/index.js';
import { assetPublisher } from '../bootstrap/asset-storage.js';
import { callerOf } from '../session/caller.js';
import type { ToolkitIo } from '../io.js';
import type { Session } from '../session/session.js';
import { stackTarget } from '../stacks/stack-requests.js';

export interface PublishAssetsAppInput extends ToolkitIo {
  session: Session;
  assembly: CloudAssembly;
  patterns: string[];
  all: boolean;
  signal?: AbortSignal;
  /** `--verbose`: which role each stack's assets went through, repeated build commands. */
  verbose?: boolean;
}

/**
 * `cdkd publish-assets`: the selected stacks' assets, published to cdkd's asset storage as a
 * deploy publishes them (same keys, a key already there skipped), and nothing deployed: a
 * pipeline's publish step, whose deploy step then finds every asset in place.
 */
export async function publishAssetsApp(
  input: PublishAssetsAppInput,
): Promise<{ stack: string; bucket: string }[]> {
  const stacks = selectStacks(input.assembly, {
    patterns: input.patterns,
    all: input.all,
    defaultSelection: 'only-single',
    extend: 'none',
  });
  const caller = await callerOf(input.session, input.signal);
  const publish = assetPublisher(input.session, input, input.verbose ? { verbose: true } : {});
  const published: { stack: string; bucket: string }[] = [];
  for (const stack of stacks) {
    published.push({ stack: stack.displayName, bucket: await publish(stack, stackTarget(stack, caller)) });
  }
  return published;
}
