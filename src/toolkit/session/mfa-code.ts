import { ioQuestion, type IoHost } from '../../messages/index.js';

/** Asks the IO host for a profile's MFA code (CDKD_Q9200); a host with nobody to ask refuses. */
export function mfaCodeAsker(
  io: IoHost,
  command: string,
  profile: string | undefined,
): (serial: string) => Promise<string> {
  return (serial) =>
    io.ask(
      ioQuestion(
        command,
        'CDKD_Q9200',
        `MFA code for ${serial}${profile ? ` (profile ${profile})` : ''}`,
        { serial, ...(profile ? { profile } : {}) },
        '',
      ),
    );
}
