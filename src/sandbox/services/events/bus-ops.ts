import { optionalString, requiredString } from '../../protocols/json.js';
import { eventsErrors } from './events-errors.js';
import type { SandboxContext } from '../../service-module.js';
import type { EventRouter } from './router.js';
import type { RuleSchedules } from './rule-schedules.js';
import { busArn, type BusRecord, type EventsStore, type RuleRecord } from './store.js';

type Input = Record<string, unknown>;

export interface EventsCall {
  store: EventsStore;
  context: SandboxContext;
  router: EventRouter;
  schedules: RuleSchedules;
  accountId: string;
  region: string;
  input: Input;
}

const BUS_NAME = /^[/.\-_A-Za-z0-9]{1,256}$/;

/** A bus name, or a bus ARN's name part (the APIs take either). */
export function busName(value: string | undefined): string {
  if (value === undefined) return 'default';
  const arn = /^arn:aws:events:[^:]+:\d{12}:event-bus\/(.+)$/.exec(value);
  return arn ? arn[1]! : value;
}

export async function createEventBus(call: EventsCall): Promise<unknown> {
  const name = requiredString(call.input, 'Name');
  if (!BUS_NAME.test(name) || name === 'default') {
    throw eventsErrors.validation(`Event bus name ${name} is not valid.`);
  }
  const existing = call.store.getBus(call.region, name);
  if (existing) throw eventsErrors.busExists(busArn(existing, call.accountId));
  const description = optionalString(call.input, 'Description');
  const kms = optionalString(call.input, 'KmsKeyIdentifier');
  const deadLetterArn = (call.input.DeadLetterConfig as { Arn?: string } | undefined)?.Arn;
  const bus: BusRecord = {
    name,
    region: call.region,
    ...(description !== undefined ? { description } : {}),
    ...(kms !== undefined ? { kmsKeyIdentifier: kms } : {}),
    ...(deadLetterArn !== undefined ? { deadLetterArn } : {}),
    tags: (call.input.Tags as BusRecord['tags'] | undefined) ?? [],
    creationTime: call.context.clock.now(),
  };
  await call.store.saveBus(bus);
  return {
    EventBusArn: busArn(bus, call.accountId),
    ...(description !== undefined ? { Description: description } : {}),
  };
}

function requireBus(call: EventsCall, member = 'Name'): BusRecord {
  const name = busName(optionalString(call.input, member));
  const bus = call.store.getBus(call.region, name);
  if (!bus) throw eventsErrors.busNotFound(name);
  return bus;
}

export async function describeEventBus(call: EventsCall): Promise<unknown> {
  const bus = requireBus(call);
  return {
    Name: bus.name,
    Arn: busArn(bus, call.accountId),
    ...(bus.description !== undefined ? { Description: bus.description } : {}),
    ...(bus.kmsKeyIdentifier !== undefined ? { KmsKeyIdentifier: bus.kmsKeyIdentifier } : {}),
    ...(bus.deadLetterArn !== undefined ? { DeadLetterConfig: { Arn: bus.deadLetterArn } } : {}),
    CreationTime: bus.creationTime / 1000,
    LastModifiedTime: bus.creationTime / 1000,
  };
}

export async function updateEventBus(call: EventsCall): Promise<unknown> {
  const bus = { ...requireBus(call) };
  if (bus.name === 'default')
    throw eventsErrors.validation('The default event bus cannot be updated this way.');
  const description = optionalString(call.input, 'Description');
  const kms = optionalString(call.input, 'KmsKeyIdentifier');
  const deadLetterArn = (call.input.DeadLetterConfig as { Arn?: string } | undefined)?.Arn;
  if (description !== undefined) bus.description = description;
  else delete bus.description;
  if (kms !== undefined) bus.kmsKeyIdentifier = kms;
  else delete bus.kmsKeyIdentifier;
  if (deadLetterArn !== undefined) bus.deadLetterArn = deadLetterArn;
  else delete bus.deadLetterArn;
  await call.store.saveBus(bus);
  return { Name: bus.name, Arn: busArn(bus, call.accountId) };
}

/** Deleting a bus that does not exist succeeds, as in EventBridge; the default bus cannot go. */
export async function deleteEventBus(call: EventsCall): Promise<unknown> {
  const name = requiredString(call.input, 'Name');
  if (name === 'default') throw eventsErrors.validation('Cannot delete event bus default.');
  const bus = call.store.getBus(call.region, name);
  if (!bus) return {};
  for (const rule of call.store.rulesOn(call.region, name)) {
    call.schedules.disarm(rule);
    await call.store.deleteRule(rule);
  }
  await call.store.deleteBus(bus);
  return {};
}

/** The bus or rule a tagging ARN names. */
function tagged(call: EventsCall): { kind: 'bus'; record: BusRecord } | { kind: 'rule'; record: RuleRecord } {
  const arn = requiredString(call.input, 'ResourceARN');
  const match = /^arn:aws:events:([^:]+):\d{12}:(event-bus|rule)\/(.+)$/.exec(arn);
  if (match?.[2] === 'event-bus') {
    const record = call.store.getBus(match[1]!, match[3]!);
    if (record && record.name !== 'default') return { kind: 'bus', record };
  } else if (match) {
    const parts = match[3]!.split('/');
    const rule = call.store.getRule(
      match[1]!,
      parts.length > 1 ? parts[0]! : 'default',
      parts[parts.length - 1]!,
    );
    if (rule) return { kind: 'rule', record: rule };
  }
  throw eventsErrors.resourceNotFound(arn);
}

async function saveTags(
  call: EventsCall,
  tags: (old: BusRecord['tags']) => BusRecord['tags'],
): Promise<void> {
  const target = tagged(call);
  if (target.kind === 'bus') await call.store.saveBus({ ...target.record, tags: tags(target.record.tags) });
  else await call.store.saveRule({ ...target.record, tags: tags(target.record.tags) });
}

export async function tagResource(call: EventsCall): Promise<unknown> {
  const added = (call.input.Tags as BusRecord['tags'] | undefined) ?? [];
  const keys = new Set(added.map((t) => t.Key));
  await saveTags(call, (old) => [...old.filter((t) => !keys.has(t.Key)), ...added]);
  return {};
}

export async function untagResource(call: EventsCall): Promise<unknown> {
  const removed = new Set((call.input.TagKeys as string[] | undefined) ?? []);
  await saveTags(call, (old) => old.filter((t) => !removed.has(t.Key)));
  return {};
}

export async function listTagsForResource(call: EventsCall): Promise<unknown> {
  return { Tags: tagged(call).record.tags };
}
