import { describe, expect, it } from 'vitest';
import { useModuleLog } from '../helpers/module-log.js';

/** Packages a command loads only once it runs: none of them may load for --help or --version. */
const HEAVY = [
  '/node_modules/@aws-sdk/',
  '/node_modules/@smithy/',
  '/node_modules/@aws-cdk/',
  '/node_modules/zod/',
  '/node_modules/yaml/',
  '/node_modules/dynalite/',
  '/dist/sandbox/',
  '/dist/engine/',
  '/dist/state/documents/',
];

const modulesLoadedBy = useModuleLog();

describe('CLI start-up loads only what the command uses', () => {
  it.each([['--version'], ['--help'], ['deploy', '--help'], ['bootstrap', '--help'], ['sandbox', '--help']])(
    'cdkd %s loads no AWS SDK, schema, sandbox or engine module',
    async (...args: string[]) => {
      const { code, stdout, modules } = await modulesLoadedBy(args);
      expect(code).toBe(0);
      expect(stdout).not.toBe('');
      // The hook really saw the CLI's own modules, so an empty list cannot pass by accident.
      expect(modules.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
      expect(modules.filter((url) => HEAVY.some((part) => url.includes(part)))).toEqual([]);
    },
  );

  it('a command that talks to AWS still loads the SDK when it runs', async () => {
    // Nothing listens on port 9: the command fails, but only after building its S3 client.
    const { code, modules } = await modulesLoadedBy(['state', 'list'], {
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'x',
      AWS_SECRET_ACCESS_KEY: 'x',
      AWS_EC2_METADATA_DISABLED: 'true',
      CDKD_STATE_BUCKET: 'cdkd-start-up-test',
    });
    expect(code).toBe(1);
    expect(modules.some((url) => url.includes('/node_modules/@aws-sdk/client-s3/'))).toBe(true);
    // The bundled CLI's files are seen as the modules they hold, so the list above can catch one.
    expect(modules.some((url) => url.endsWith('/dist/state/state-backend.js'))).toBe(true);
  });
});
