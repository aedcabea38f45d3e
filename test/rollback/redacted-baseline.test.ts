import { describe, expect, it } from 'vitest';
import { baselineProperties, RedactedBaseline } from '../../src/rollback/redacted-baseline.js';

// Spec 001, "NoEcho values are not reverted": a masked value is read back from AWS and
// left as AWS holds it; cdkd never sends *** to AWS.
const live = (properties: Record<string, unknown>) => async () => ({ properties, attributes: {} });

describe('baselineProperties', () => {
  it('leaves properties with no mask as they are, without reading AWS', async () => {
    const read = async () => {
      throw new Error('must not read');
    };
    expect(await baselineProperties({ A: 1, B: 'x*' }, read)).toEqual({
      values: { A: 1, B: 'x*' },
      keptAsLive: [],
    });
  });

  it('replaces a masked value with the one AWS holds', async () => {
    const baseline = await baselineProperties({ Password: '***', Keep: 1 }, live({ Password: 'secret' }));
    expect(baseline).toEqual({ values: { Password: 'secret', Keep: 1 }, keptAsLive: ['Password'] });
  });

  it('treats a value holding the mask inside a string (Fn::Sub over a NoEcho parameter) as masked whole', async () => {
    const baseline = await baselineProperties(
      { Tags: [{ Key: 'conn', Value: 'user:***@db' }] },
      live({ Tags: [{ Key: 'conn', Value: 'user:hunter2@db' }] }),
    );
    expect(baseline.values).toEqual({ Tags: [{ Key: 'conn', Value: 'user:hunter2@db' }] });
    expect(JSON.stringify(baseline.values)).not.toContain('***');
  });

  it('with no live value to read (a re-create), a masked value fails with ROLLBACK_REDACTED_BASELINE', async () => {
    await expect(baselineProperties({ Url: 'https://u:***@host' }, undefined)).rejects.toBeInstanceOf(
      RedactedBaseline,
    );
  });

  it('a read that does not hold the property fails the same way, naming the path', async () => {
    await expect(baselineProperties({ A: { B: '***' } }, live({ A: {} }))).rejects.toThrow(/A\.B/);
  });
});
