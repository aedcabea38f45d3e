import { Option, type Command } from 'commander';
import { mfaCodeAsker } from '../../toolkit/session/mfa-code.js';
import { Session } from '../../toolkit/session/session.js';
import { globalOptions } from './global-options.js';
import { cliIoHost } from '../prompts/io-host.js';

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

/** `--account` for a command that finds its stack in cdkd's state rather than in an app. */
export function accountOption(): Option {
  return new Option(
    '--account <id>',
    "act on cdkd's state in this account, through its deploy role (cdkd bootstrap --trust) or --role-arn (default: the credentials' own)",
  );
}

/**
 * The session of a command without an app: the credentials' own, or (with `--account`)
 * the session of that account's deploy role, assumed now so a role that refuses stops the
 * command before anything is read.
 */
export function stateSessionFor(command: Command): Promise<Session> {
  const { account } = command.optsWithGlobals<{ account?: string }>();
  return sessionFor(command).inAccount(account, globalOptions(command).region);
}
