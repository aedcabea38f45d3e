import type { DeployEvent } from '../messages/index.js';

export type { DeployEvent, DeployPhase, ResourceAction } from '../messages/index.js';

/** Where the engine reports what it does while it works (the IO host, through `eventMessage`). */
export type EventSink = (event: DeployEvent) => void;
