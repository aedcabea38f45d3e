import { requiredMember, stringMember, type LambdaCall } from './call.js';
import { applySettings, checkSettings } from './function-settings.js';
import { lambdaErrors } from './lambda-errors.js';
import type { FunctionConfig, ImageConfigRecord } from './model.js';

const ROLE_PATTERN = /^arn:(aws[a-zA-Z-]*)?:iam::\d{12}:role\/?[a-zA-Z_0-9+=,.@\-_/]+$/;

type ConfigFields = Omit<FunctionConfig, 'code' | 'revisionId' | 'lastModified'>;

/** CreateFunction's configuration members, with Lambda's defaults (3 s, 128 MB, x86_64). */
export function configFromCreate(call: LambdaCall): ConfigFields {
  const role = requiredMember(call.input, 'Role');
  return applyConfig(call, {
    role,
    description: '',
    timeout: 3,
    memorySize: 128,
    layers: [],
    architectures: ['x86_64'],
  });
}

/**
 * The members an UpdateFunctionConfiguration (or CreateFunction) names, over `base`. A
 * member sent empty clears it (`Environment: {}`, `VpcConfig: {SubnetIds: []}`), as on AWS.
 */
export function applyConfig(call: LambdaCall, base: ConfigFields): ConfigFields {
  const input = call.input;
  const next: ConfigFields = { ...base };
  const role = stringMember(input, 'Role');
  if (role !== undefined) next.role = checkRole(call, role);
  const handler = stringMember(input, 'Handler');
  if (handler !== undefined) next.handler = handler;
  const runtime = stringMember(input, 'Runtime');
  if (runtime !== undefined) next.runtime = runtime;
  const description = stringMember(input, 'Description');
  if (description !== undefined) next.description = description;
  if (input.Timeout !== undefined) next.timeout = inRange('timeout', input.Timeout, 1, 900);
  if (input.MemorySize !== undefined) next.memorySize = inRange('memorySize', input.MemorySize, 128, 10240);
  if (isObject(input.Environment)) {
    const variables = input.Environment.Variables;
    if (isObject(variables) && Object.keys(variables).length > 0) {
      next.environment = Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, String(v)]));
    } else delete next.environment;
  }
  if (Array.isArray(input.Layers)) next.layers = input.Layers.map(String);
  if (Array.isArray(input.Architectures)) next.architectures = input.Architectures.map(String);
  if (isObject(input.VpcConfig)) {
    const subnets = stringList(input.VpcConfig.SubnetIds);
    const groups = stringList(input.VpcConfig.SecurityGroupIds);
    if (subnets.length > 0 || groups.length > 0)
      next.vpcConfig = { SubnetIds: subnets, SecurityGroupIds: groups };
    else delete next.vpcConfig;
  }
  if (isObject(input.DeadLetterConfig)) {
    const target = input.DeadLetterConfig.TargetArn;
    if (typeof target === 'string' && target !== '') next.deadLetterTargetArn = target;
    else delete next.deadLetterTargetArn;
  }
  if (isObject(input.ImageConfig)) {
    const image = imageConfig(input.ImageConfig);
    if (Object.keys(image).length > 0) next.imageConfig = image;
    else delete next.imageConfig;
  }
  const settled = applySettings(input, next);
  checkSettings(settled, settled.runtime, settled.vpcConfig);
  return settled;
}

/** The role must be well-formed and assumable by Lambda (propagated, trusting Lambda). */
function checkRole(call: LambdaCall, role: string): string {
  if (!ROLE_PATTERN.test(role)) {
    throw lambdaErrors.validation(
      'role',
      role,
      `Member must satisfy regular expression pattern: ${ROLE_PATTERN.source}`,
    );
  }
  if (!call.roles.assumable(role, call.now)) throw lambdaErrors.roleNotAssumable();
  return role;
}

function inRange(member: string, value: unknown, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw lambdaErrors.validation(member, value, `Member must have value between ${min} and ${max}`);
  }
  return number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** ImageConfig's members as sent; an empty one (or all members empty) leaves the image's own. */
function imageConfig(input: Record<string, unknown>): ImageConfigRecord {
  const entryPoint = stringList(input.EntryPoint);
  const command = stringList(input.Command);
  const directory = typeof input.WorkingDirectory === 'string' ? input.WorkingDirectory : '';
  return {
    ...(entryPoint.length > 0 ? { EntryPoint: entryPoint } : {}),
    ...(command.length > 0 ? { Command: command } : {}),
    ...(directory ? { WorkingDirectory: directory } : {}),
  };
}
