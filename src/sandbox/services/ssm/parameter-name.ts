/**
 * SSM's message for a parameter name it refuses (spaces, characters outside a-zA-Z0-9_.-/,
 * an "aws" or "ssm" prefix), shared by PutParameter and Cloud Control; undefined when valid.
 * The sandbox's own public parameters (/aws/service/...) are seeded without this check.
 */
export function parameterNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  const first = trimmed.replace(/^\//, '').toLowerCase();
  const valid = /^[A-Za-z0-9_.\-/]+$/.test(trimmed) && !first.startsWith('aws') && !first.startsWith('ssm');
  if (valid) return undefined;
  return 'Parameter name: can\'t be prefixed with "aws" or "ssm" (case-insensitive). If formed as a path, it can consist of sub-paths divided by slash symbol; each sub-path can be formed as a mix of letters, numbers and the following 3 symbols .-_';
}
