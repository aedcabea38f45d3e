import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCdkdError } from '../../../src/errors.js';
import type { PlannedOperation } from '../../../src/plan/index.js';
import {
  planFlags,
  readSavedPlan,
  savedPlanDocument,
  writeSavedPlan,
} from '../../../src/toolkit/deploy/saved-plan/index.js';
import { CDKD_VERSION } from '../../../src/version.js';
import { tempDir } from '../../assembly/helpers.js';

const operation: PlannedOperation = {
  logicalId: 'Queue',
  kind: 'create',
  type: 'AWS::SQS::Queue',
  reason: 'new',
  changedProperties: [],
  replacementCauses: [],
  notes: [],
  propertyHash: 'f'.repeat(64),
  dependsOn: [],
  phase: 'deploy',
  reresolveAfter: [],
  replacedIfIdChanges: false,
};

const document = savedPlanDocument(
  planFlags({ forceStatefulRecreation: false }),
  [
    {
      basis: {
        stackName: 'App',
        displayName: 'App',
        accountId: '123456789012',
        region: 'us-east-1',
        templateHash: `sha256:${'a'.repeat(64)}`,
        parameters: {},
      },
      stateEtag: null,
      operations: [operation],
    },
  ],
  new Date('2026-12-05T00:00:00Z'),
);

async function refusal(file: string): Promise<{ code: string; message: string; hint?: string | undefined }> {
  try {
    await readSavedPlan(file);
  } catch (error) {
    if (isCdkdError(error)) return error;
    throw error;
  }
  throw new Error(`${file} was read`);
}

function fileWith(text: string): string {
  const file = join(tempDir(), 'plan.json');
  writeFileSync(file, text);
  return file;
}

describe('the saved plan file', () => {
  it('reads back what was written, stamped with the format and cdkd versions', async () => {
    const file = join(tempDir(), 'plan.json');
    await writeSavedPlan(file, document);
    const read = await readSavedPlan(file);
    expect(read).toEqual(document);
    expect(read.formatVersion).toBe(1);
    expect(read.cdkdVersion).toBe(CDKD_VERSION);
    expect(read.stacks[0]!.operations[0]).toMatchObject({ logicalId: 'Queue', kind: 'create' });
  });

  it.each([
    { what: 'a missing file', text: undefined, says: 'Cannot read the plan file' },
    { what: 'text that is not JSON', text: '{not json', says: 'is not JSON' },
    { what: 'JSON that is not a saved plan', text: '{"stacks": []}', says: 'is not a cdkd saved plan' },
    {
      what: 'another format version',
      text: JSON.stringify({ ...document, formatVersion: 99 }),
      says: 'has format version 99; this cdkd reads version 1',
    },
    {
      what: 'a field of the wrong shape',
      text: JSON.stringify({ ...document, stacks: [{ ...document.stacks[0], templateHash: 'md5:1' }] }),
      says: 'is malformed: stacks.0.templateHash',
    },
    {
      what: 'an unknown field',
      text: JSON.stringify({ ...document, extra: true }),
      says: 'is malformed',
    },
  ])('refuses $what, naming the file', async ({ text, says }) => {
    const file = text === undefined ? join(tempDir(), 'absent.json') : fileWith(text);
    const error = await refusal(file);
    expect(error.code).toBe('SAVED_PLAN_INVALID');
    expect(error.message).toContain(file);
    expect(error.message).toContain(says);
    expect(error.hint).toContain('cdkd diff --out');
  });
});
