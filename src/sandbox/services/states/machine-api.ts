import { SandboxError } from '../../errors.js';
import { optionalString, requiredString } from '../../protocols/json.js';
import { page } from '../../protocols/pagination.js';
import { sandboxSchemaFor } from '../../resource-index.js';
import { HandlerError, type ResourceHandler, type ResourceModel } from '../../resources.js';
import type { SandboxContext } from '../../service-module.js';
import { sandboxRoleAges } from '../../policy/role-ages.js';
import { definitionText, TYPE } from './machines.js';

/** One call: its input and who asks where. */
export interface MachineCall {
  input: Record<string, unknown>;
  region: string;
  accountId: string;
}

type MachineOperation = (call: MachineCall) => Promise<unknown> | unknown;

const ROLE_ARN = /^arn:aws[\w-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/;
const ARN = /^arn:aws[\w-]*:states:([a-z0-9-]+):(\d{12}):stateMachine:([^:]+)$/;
// AWS refuses whitespace, brackets, wildcards, these punctuation marks and control characters.
const NAME = /^[^\s{}[\]?*"#%\\^|~`$&,;:/\p{Cc}]{1,80}$/u;

const errors = {
  invalidArn: (arn: string) => new SandboxError('InvalidArn', `Invalid Arn: '${arn}'`, 400),
  invalidName: (name: string) => new SandboxError('InvalidName', `Invalid Name: '${name}'`, 400),
  invalidDefinition: (reason: string) =>
    new SandboxError('InvalidDefinition', `Invalid State Machine Definition: '${reason}'`, 400),
  machineMissing: (arn: string) =>
    new SandboxError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`, 400),
  resourceMissing: (arn: string) => new SandboxError('ResourceNotFound', `Resource not found: '${arn}'`, 400),
  exists: (arn: string) =>
    new SandboxError('StateMachineAlreadyExists', `State Machine Already Exists: '${arn}'`, 400),
  nothingToUpdate: () =>
    new SandboxError(
      'MissingRequiredParameter',
      'Either the definition, the role ARN, the LoggingConfiguration, or the TracingConfiguration must be specified',
      400,
    ),
  invalidToken: () => new SandboxError('InvalidToken', 'Invalid Token', 400),
  invalidRoleArn: (arn: string) =>
    new SandboxError('InvalidArn', `Invalid Arn: 'Resource type not valid in this context: ${arn}'`, 400),
  roleNotAssumable: () =>
    new SandboxError(
      'AccessDeniedException',
      'Neither the global service principal states.amazonaws.com, nor the regional one is authorized to assume the provided role.',
      400,
    ),
};

/** The API's camelCase structures as Cloud Control's PascalCase model has them, and back. */
const recase = (value: unknown, first: (key: string) => string): unknown =>
  Array.isArray(value)
    ? value.map((item) => recase(item, first))
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [first(key), recase(inner, first)]))
      : value;
const pascal = (value: unknown) => recase(value, (key) => key.charAt(0).toUpperCase() + key.slice(1));
const camel = (value: unknown) => recase(value, (key) => key.charAt(0).toLowerCase() + key.slice(1));

/** A definition Step Functions takes: JSON naming a StartAt state among its States. */
function checkDefinition(text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw errors.invalidDefinition('INVALID_JSON_DESCRIPTION: the definition is not valid JSON');
  }
  const machine = parsed as { StartAt?: unknown; States?: Record<string, unknown> };
  if (typeof machine.StartAt !== 'string' || typeof machine.States !== 'object' || machine.States === null) {
    throw errors.invalidDefinition('SCHEMA_VALIDATION_FAILED: StartAt and States are required');
  }
  if (!(machine.StartAt in machine.States)) {
    throw errors.invalidDefinition(`MISSING_TRANSITION_TARGET: Missing 'Next' target: ${machine.StartAt}`);
  }
}

/**
 * Step Functions' state-machine calls (create, describe, list, update, delete, tags) on the
 * machines Cloud Control keeps, so a machine a deploy made is one ListStateMachines shows, and
 * one CreateStateMachine made is one the executions run.
 */
export function machineOperations(context: SandboxContext): Record<string, MachineOperation> {
  const store = (): ResourceHandler => context.resources.resolve(TYPE)!;
  const roles = sandboxRoleAges(context, 'states.amazonaws.com');
  /** A well-formed role ARN Step Functions can assume now (propagated, trusting states.amazonaws.com). */
  const checkRole = (roleArn: string) => {
    if (!ROLE_ARN.test(roleArn)) throw errors.invalidRoleArn(roleArn);
    if (!roles.assumable(roleArn, Date.now())) throw errors.roleNotAssumable();
  };
  const parseArn = (arn: string) => {
    const match = ARN.exec(arn);
    if (!match) throw errors.invalidArn(arn);
    return { region: match[1]!, accountId: match[2]! };
  };
  const read = (arn: string, caller: MachineCall) => {
    const { region, accountId } = parseArn(arn);
    return accountId === caller.accountId ? store().read(arn, region, accountId) : undefined;
  };
  const requireMachine = (input: Record<string, unknown>, caller: MachineCall, key = 'stateMachineArn') => {
    const arn = requiredString(input, key);
    const model = read(arn, caller);
    if (!model) throw key === 'resourceArn' ? errors.resourceMissing(arn) : errors.machineMissing(arn);
    return { arn, model };
  };
  const creationDate = (arn: string) => {
    const made = store().createdAt?.(arn, parseArn(arn).region);
    return (made === undefined ? Date.now() : Date.parse(made)) / 1000;
  };
  const writable = new Set(sandboxSchemaFor(TYPE)?.props ?? []);
  /** `model` as a desired state: what Cloud Control computed (Arn, Name, revision) left out. */
  const update = async (arn: string, model: ResourceModel) => {
    const { region, accountId } = parseArn(arn);
    const desired = Object.fromEntries(Object.entries(model).filter(([key]) => writable.has(key)));
    try {
      return await store().update(arn, desired, region, accountId);
    } catch (error) {
      if (error instanceof HandlerError && error.errorCode === 'NotFound') throw errors.machineMissing(arn);
      throw error;
    }
  };
  const settings = (input: Record<string, unknown>): ResourceModel => ({
    ...(input.loggingConfiguration !== undefined && {
      LoggingConfiguration: pascal(input.loggingConfiguration),
    }),
    ...(input.tracingConfiguration !== undefined && {
      TracingConfiguration: pascal(input.tracingConfiguration),
    }),
  });
  const sameMachine = (model: ResourceModel, wanted: ResourceModel) =>
    definitionText(model) === wanted.DefinitionString &&
    (model.StateMachineType ?? 'STANDARD') === wanted.StateMachineType &&
    JSON.stringify(model.LoggingConfiguration) === JSON.stringify(wanted.LoggingConfiguration) &&
    JSON.stringify(model.TracingConfiguration) === JSON.stringify(wanted.TracingConfiguration);

  return {
    async CreateStateMachine(call) {
      const name = requiredString(call.input, 'name');
      if (!NAME.test(name)) throw errors.invalidName(name);
      const definition = requiredString(call.input, 'definition');
      checkDefinition(definition);
      const roleArn = requiredString(call.input, 'roleArn');
      checkRole(roleArn);
      const wanted: ResourceModel = {
        StateMachineName: name,
        DefinitionString: definition,
        RoleArn: roleArn,
        StateMachineType: optionalString(call.input, 'type') ?? 'STANDARD',
        ...settings(call.input),
        ...(Array.isArray(call.input.tags) && { Tags: pascal(call.input.tags) }),
      };
      const arn = `arn:aws:states:${call.region}:${call.accountId}:stateMachine:${name}`;
      const existing = store().read(arn, call.region, call.accountId);
      if (existing) {
        // Idempotent on name, definition, type and settings; a role or tags that differ are ignored.
        if (!sameMachine(existing, wanted)) throw errors.exists(arn);
        return { stateMachineArn: arn, creationDate: creationDate(arn) };
      }
      const made = await store().create(wanted, call.region, call.accountId);
      return { stateMachineArn: made.identifier, creationDate: creationDate(made.identifier) };
    },
    DescribeStateMachine(call) {
      const { arn, model } = requireMachine(call.input, call);
      return {
        stateMachineArn: arn,
        name: String(model.StateMachineName ?? arn.split(':').pop()),
        status: 'ACTIVE',
        definition: definitionText(model) ?? '{}',
        roleArn: String(model.RoleArn ?? ''),
        type: String(model.StateMachineType ?? 'STANDARD'),
        creationDate: creationDate(arn),
        loggingConfiguration: camel(
          model.LoggingConfiguration ?? { level: 'OFF', includeExecutionData: false },
        ),
        tracingConfiguration: camel(model.TracingConfiguration ?? { enabled: false }),
        ...(typeof model.StateMachineRevisionId === 'string' && { revisionId: model.StateMachineRevisionId }),
      };
    },
    ListStateMachines(call) {
      const machines = store()
        .list(call.region, call.accountId)
        .filter((entry) => ARN.exec(entry.identifier)?.[2] === call.accountId)
        .map(({ identifier, model }) => ({
          stateMachineArn: identifier,
          name: String(model.StateMachineName ?? identifier.split(':').pop()),
          type: String(model.StateMachineType ?? 'STANDARD'),
          creationDate: creationDate(identifier),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const { items, nextToken } = page(
        machines,
        call.input.maxResults,
        call.input.nextToken,
        errors.invalidToken,
      );
      return { stateMachines: items, ...(nextToken !== undefined && { nextToken }) };
    },
    async UpdateStateMachine(call) {
      const { arn, model } = requireMachine(call.input, call);
      const definition = optionalString(call.input, 'definition');
      const roleArn = optionalString(call.input, 'roleArn');
      const changed = settings(call.input);
      if (definition === undefined && roleArn === undefined && Object.keys(changed).length === 0) {
        throw errors.nothingToUpdate();
      }
      if (definition !== undefined) checkDefinition(definition);
      if (roleArn !== undefined) checkRole(roleArn);
      const next: ResourceModel = {
        ...model,
        ...changed,
        ...(roleArn !== undefined && { RoleArn: roleArn }),
      };
      if (definition !== undefined) {
        delete next.Definition;
        delete next.DefinitionSubstitutions;
        next.DefinitionString = definition;
      }
      const updated = await update(arn, next);
      return {
        updateDate: Date.now() / 1000,
        ...(typeof updated.StateMachineRevisionId === 'string' && {
          revisionId: updated.StateMachineRevisionId,
        }),
      };
    },
    async DeleteStateMachine(call) {
      const arn = requiredString(call.input, 'stateMachineArn');
      const { region, accountId } = parseArn(arn);
      // Deleting a machine that is gone (or never was) succeeds, as on AWS.
      if (read(arn, call)) await store().delete(arn, region, accountId);
      return {};
    },
    ListTagsForResource(call) {
      const { model } = requireMachine(call.input, call, 'resourceArn');
      return { tags: camel(model.Tags ?? []) };
    },
    async TagResource(call) {
      const { arn, model } = requireMachine(call.input, call, 'resourceArn');
      const added = pascal(call.input.tags ?? []) as Array<{ Key: string; Value: string }>;
      const kept = ((model.Tags as Array<{ Key: string }> | undefined) ?? []).filter(
        (tag) => !added.some((add) => add.Key === tag.Key),
      );
      await update(arn, { ...model, Tags: [...kept, ...added] });
      return {};
    },
    async UntagResource(call) {
      const { arn, model } = requireMachine(call.input, call, 'resourceArn');
      const removed = new Set((call.input.tagKeys as string[] | undefined) ?? []);
      const tags = ((model.Tags as Array<{ Key: string }> | undefined) ?? []).filter(
        (tag) => !removed.has(tag.Key),
      );
      await update(arn, { ...model, Tags: tags });
      return {};
    },
  };
}
