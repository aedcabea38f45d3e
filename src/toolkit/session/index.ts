// The public face of toolkit/session: what every command starts from: the options, credentials and caller, the providers, the app's cached context.
export * from './account-engines.js';
export * from './caller.js';
export * from './context-cache.js';
export * from './mfa-code.js';
export * from './provider-wiring.js';
export * from './session.js';
