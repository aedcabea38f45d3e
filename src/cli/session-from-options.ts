import type { Command } from 'commander';
import { Session } from '../toolkit/session/session.js';
import { globalOptions } from './global-options.js';

export function sessionFor(command: Command): Session {
  const options = globalOptions(command);
  return new Session({
    region: options.region,
    profile: options.profile,
    caBundlePath: options.caBundlePath,
    stateBucket: options.stateBucket,
    statePrefix: options.statePrefix,
  });
}
