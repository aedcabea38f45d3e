// The public face of src/cli/options: the options commands share, and the session and synthesis they set up.
export * from './app-options.js';
export * from './caller-environment.js';
export * from './deploy-options.js';
export * from './global-options.js';
export * from './habit-flags.js';
export * from './session-from-options.js';
export * from './synthesize-app.js';
