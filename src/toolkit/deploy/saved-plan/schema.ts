import * as z from 'zod';

/** Bumped whenever a field changes meaning; a file of another version is refused, never guessed at. */
export const SAVED_PLAN_FORMAT_VERSION = 1;
export const SAVED_PLAN_FORMAT = 'cdkd-saved-plan';

/** A parameter value, or for a NoEcho parameter only the sha256 (hex) of it, so the file holds no secret. */
const parameterValue = z.union([
  z.strictObject({ value: z.string() }),
  z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
]);

/** The flags that shape a plan, as `cdkd diff --out` was given them (lists sorted). */
export const planFlagsSchema = z.strictObject({
  forceStatefulRecreation: z.boolean(),
  replace: z.boolean(),
  fixForward: z.boolean(),
  recreateViaCcApi: z.array(z.string()),
  recreateViaSdkProvider: z.array(z.string()),
  /** `true`: --prefer-sdk-route alone; a list: its TYPE:PROPERTY values; null: not given. */
  preferSdkRoute: z.union([z.literal(true), z.array(z.string()), z.null()]),
  pinCcApi: z.array(z.string()),
  prefixUserSuppliedNames: z.boolean(),
});

/** A planned operation as the plan module makes it; the fields a saved plan binds are checked, the rest kept. */
const operationSchema = z.looseObject({
  logicalId: z.string(),
  kind: z.enum(['create', 'update', 'replace', 'delete', 'no-op']),
  type: z.string(),
  previousType: z.string().optional(),
  physicalId: z.string().optional(),
  reason: z.string(),
  changedProperties: z.array(z.string()),
  replacementCauses: z.array(z.looseObject({ kind: z.string() })),
  notes: z.array(z.string()),
  propertyHash: z.string().optional(),
  dependsOn: z.array(z.string()),
  phase: z.enum(['deploy', 'cleanup']),
  reresolveAfter: z.array(z.string()),
  replacedIfIdChanges: z.boolean(),
  routing: z.string().optional(),
  recreateVia: z.string().optional(),
});

export const savedStackSchema = z.strictObject({
  stackName: z.string(),
  /** The hierarchical id (`Stage/Stack`) `cdkd deploy` selects stacks by. */
  displayName: z.string(),
  accountId: z.string(),
  region: z.string(),
  /** The ETag of the stack's state document the plan was made from; null: the stack had no state. */
  stateEtag: z.string().nullable(),
  /** sha256 over the template, its nested templates (asset references rewritten) and the stack's tags and asset hashes. */
  templateHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  parameters: z.record(z.string(), parameterValue),
  operations: z.array(operationSchema),
});

export const savedPlanSchema = z.strictObject({
  format: z.literal(SAVED_PLAN_FORMAT),
  formatVersion: z.number().int(),
  cdkdVersion: z.string(),
  createdAt: z.string(),
  flags: planFlagsSchema,
  stacks: z.array(savedStackSchema).min(1),
});

export type PlanFlags = z.infer<typeof planFlagsSchema>;
export type SavedStack = z.infer<typeof savedStackSchema>;
export type SavedPlan = z.infer<typeof savedPlanSchema>;
export type ParameterValue = z.infer<typeof parameterValue>;
