import { SandboxError } from '../../errors.js';

const FORBIDDEN_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const FORBIDDEN_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

/** S3's general purpose bucket naming rules; the reason a name breaks them, or undefined. */
export function bucketNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return 'must be between 3 and 63 characters long';
  if (!/^[a-z0-9.-]+$/.test(name)) return 'may contain only lowercase letters, numbers, dots and hyphens';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) return 'must begin and end with a letter or number';
  if (name.includes('..')) return 'must not contain two adjacent periods';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return 'must not be formatted as an IP address';
  if (FORBIDDEN_PREFIXES.some((prefix) => name.startsWith(prefix))) return 'uses a reserved prefix';
  if (FORBIDDEN_SUFFIXES.some((suffix) => name.endsWith(suffix))) return 'uses a reserved suffix';
  return undefined;
}

export function assertValidBucketName(name: string): void {
  if (bucketNameProblem(name) !== undefined) {
    throw new SandboxError('InvalidBucketName', 'The specified bucket is not valid.', 400, {
      fields: { BucketName: name },
    });
  }
}
