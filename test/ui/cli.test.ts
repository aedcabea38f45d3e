import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('cdkd ui options', () => {
  it.each(['abc', '0', '70000', '1.5'])(
    'refuses --port %s with the flag named and no stack trace',
    async (port) => {
      const result = await runCli(['ui', '--port', port]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`--port ${port} is not a port number`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe('');
    },
  );
});
