import { describe, expect, it } from 'vitest';
import { CdkdError } from '../../src/errors.js';
import { stateDocumentOf } from '../../src/state/keys.js';
import {
  stateBucketAdvice,
  stateBucketError,
  type StateBucketCall,
} from '../../src/state/state-bucket-errors.js';

// Issue 25, item 16: every failure of a call on the state bucket names the bucket, what cdkd was
// doing to which stack's document, and what is safe to do next.
const BUCKET = 'cdkd-state-111111111111';

function sdkError(name: string, status: number, message = name, attempts = 3) {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status, attempts } });
}

const hangUp = () =>
  Object.assign(new Error('socket hang up'), {
    name: 'TimeoutError',
    code: 'ECONNRESET',
    $metadata: { attempts: 3 },
  });

const call = (action: StateBucketCall['action'], key: string): StateBucketCall => ({
  action,
  key,
  prefix: 'cdkd',
});

function rendered(error: unknown): { code: string; message: string; hint: string } {
  expect(error).toBeInstanceOf(CdkdError);
  const { code, message, hint } = error as CdkdError;
  return { code, message, hint: hint ?? '' };
}

describe('stateBucketError', () => {
  it('a 503 while saving state: the bucket, the document, S3 answer and the SDK attempts', () => {
    const error = stateBucketError(
      sdkError('SlowDown', 503, 'Please reduce your request rate.'),
      BUCKET,
      'us-east-1',
      call('write', 'cdkd/App/us-east-1/state.json'),
    );
    expect(rendered(error)).toEqual({
      code: 'STATE_BUCKET_UNAVAILABLE',
      message: `Saving the state of stack App (us-east-1) in the state bucket "${BUCKET}" failed after 3 attempts: S3 answered HTTP 503 SlowDown: Please reduce your request rate.`,
      hint: expect.stringContaining('cdkd rollback App --region us-east-1'),
    });
  });

  it('a dropped connection while reading a nested stack lock', () => {
    const error = stateBucketError(
      hangUp(),
      BUCKET,
      'us-east-1',
      call('read', 'cdkd/App/Child/eu-west-1/lock.json'),
    );
    const { code, message, hint } = rendered(error);
    expect(code).toBe('STATE_BUCKET_UNAVAILABLE');
    expect(message).toBe(
      `Reading the lock of stack App~Child (eu-west-1) in the state bucket "${BUCKET}" failed after 3 attempts: no answer came back (socket hang up).`,
    );
    expect(hint).toContain('cdkd force-unlock App~Child --region eu-west-1');
  });

  it('a listing of the whole prefix names the prefix', () => {
    const { message } = rendered(
      stateBucketError(
        sdkError('InternalError', 500, 'We encountered an internal error.', 1),
        BUCKET,
        'us-east-1',
        call('list', 'cdkd/'),
      ),
    );
    expect(message).toBe(
      `Listing the keys under cdkd/ in the state bucket "${BUCKET}" failed: S3 answered HTTP 500 InternalError: We encountered an internal error.`,
    );
  });

  it('a failure that is not the service being unavailable keeps its own code', () => {
    const error = stateBucketError(
      sdkError('InvalidRequest', 400, 'Bad request', 1),
      BUCKET,
      'us-east-1',
      call('delete', 'cdkd/App/us-east-1/rollback-journal.json'),
    );
    expect(rendered(error).code).toBe('STATE_BUCKET_FAILED');
    expect(rendered(error).message).toContain('Deleting the rollback journal of stack App (us-east-1)');
  });

  it('the region lookup names the bucket', () => {
    const { message } = rendered(
      stateBucketError(hangUp(), BUCKET, 'us-east-1', { action: 'locate', key: '', prefix: 'cdkd' }),
    );
    expect(message).toBe(
      `Looking up the region of the state bucket "${BUCKET}" failed after 3 attempts: no answer came back (socket hang up).`,
    );
  });

  it('a missing bucket, a denial and a wrong region keep their own sentences', () => {
    const where = call('read', 'cdkd/App/us-east-1/state.json');
    expect(rendered(stateBucketError(sdkError('NoSuchBucket', 404), BUCKET, 'us-east-1', where)).code).toBe(
      'STATE_BUCKET_NOT_FOUND',
    );
    expect(rendered(stateBucketError(sdkError('AccessDenied', 403), BUCKET, 'us-east-1', where)).code).toBe(
      'STATE_BUCKET_ACCESS_DENIED',
    );
    expect(rendered(stateBucketError(sdkError('Unknown', 301), BUCKET, 'us-east-1', where)).code).toBe(
      'STATE_BUCKET_WRONG_REGION',
    );
  });

  it("cdkd's own errors pass through unchanged", () => {
    const own = new CdkdError('STATE_CONFLICT', 'changed');
    expect(stateBucketError(own, BUCKET, 'us-east-1', call('write', 'cdkd/App/us-east-1/state.json'))).toBe(
      own,
    );
  });
});

describe('stateBucketAdvice: what is safe next, by document and call', () => {
  const target = (file: string) => stateDocumentOf('cdkd', `cdkd/App/us-east-1/${file}`);
  const rows: Array<[string, StateBucketCall['action'], string, string]> = [
    ['taking the lock', 'write', 'lock.json', 'may have been written all the same'],
    ['reading the lock', 'read', 'lock.json', "This run's lock may be left in the bucket"],
    ['releasing the lock', 'delete', 'lock.json', 'cdkd force-unlock App --region us-east-1'],
    ['reading state', 'read', 'state.json', 'A read changes nothing.'],
    ['listing journal tails', 'list', 'rollback-journal/w1/', 'A read changes nothing.'],
    ['saving state', 'write', 'state.json', 'the rollback journal records what this run did to AWS'],
    ['writing the journal', 'write', 'rollback-journal.json', 'nothing it does not name was sent to AWS'],
    [
      'writing a journal tail',
      'write',
      'rollback-journal/w1/000001.json',
      'nothing it does not name was sent',
    ],
    ['deleting the journal', 'delete', 'rollback-journal.json', 'the next successful deploy of App'],
    ['deleting state', 'delete', 'state.json', 'Re-run the command once the bucket answers again.'],
    ['writing events', 'write', 'events/x.json', 'Re-run the command once the bucket answers again.'],
  ];
  it.each(rows)('%s', (_name, action, file, advice) => {
    expect(stateBucketAdvice(action, target(file))).toContain(advice);
  });

  it('a key outside any stack: re-run', () => {
    expect(stateBucketAdvice('list', undefined)).toBe('Re-run the command once the bucket answers again.');
  });
});
