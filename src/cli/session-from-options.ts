import type { Command } from 'commander';
import { mfaCodeAsker } from '../toolkit/session/mfa-code.js';
import { Session } from '../toolkit/session/session.js';
import { globalOptions } from './global-options.js';
import { cliIoHost } from './io-host.js';

export function sessionFor(command: Command): Session {
  const options = globalOptions(command);
  const profile = options.profile ?? process.env.AWS_PROFILE;
  return new Session({
    region: options.region,
    profile: options.profile,
    caBundlePath: options.caBundlePath,
    stateBucket: options.stateBucket,
    statePrefix: options.statePrefix,
    ...(options.roleArn ? { roleArn: options.roleArn } : {}),
    // --yes answers confirmations, never an MFA code: the code is asked on a terminal or refused.
    mfaCode: mfaCodeAsker(cliIoHost({ yes: false }), command.name(), profile),
  });
}
