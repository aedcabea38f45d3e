// The public face of src/cli/prompts: questions asked on the terminal, and the IoHost that asks them.
export * from './confirm.js';
export * from './io-host.js';
export * from './mfa-prompt.js';
