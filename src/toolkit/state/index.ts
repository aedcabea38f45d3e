// The public face of toolkit/state: commands over recorded state: inspection, events, refresh, drift, orphan, state destroy, force-unlock.
export * from './drift.js';
export * from './force-unlock.js';
export * from './orphan.js';
export * from './refresh-observed.js';
export * from './stack-events.js';
export * from './state-destroy.js';
export * from './state-inspection.js';
export * from './state-stack.js';
