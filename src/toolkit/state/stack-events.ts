import type { StackEvent } from '../../state/index.js';
import { readEvents } from '../../state/event-log.js';
import type { Session } from '../session/session.js';

/**
 * The deployment events recorded for a stack, oldest first; [] when none were recorded.
 * Reads state only (no synthesis), and works after a destroy: events outlive the state.
 */
export async function stackEvents(input: {
  session: Session;
  stackName: string;
  /** Defaults to the session's region. */
  region?: string;
}): Promise<StackEvent[]> {
  const backend = await input.session.stateBackend();
  const region = input.region ?? (await input.session.region());
  return readEvents(backend.objects, input.session.options.statePrefix, {
    stackName: input.stackName,
    region,
  });
}
