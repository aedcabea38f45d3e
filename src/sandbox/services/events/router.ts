import { randomUUID } from 'node:crypto';
import { deliverChecked } from '../../policy/delivery-check.js';
import type { DeliveryCaller, DeliveryOutcome, EventEntry } from '../../ports/index.js';
import { matchesPattern, parsePattern, type Pattern } from '../../patterns/event-pattern.js';
import type { SandboxContext } from '../../service-module.js';
import { busArn, ruleArn, type EventsStore, type RuleRecord } from './store.js';
import { deliverToTarget, type Target } from './target-delivery.js';

export interface EntryResult {
  EventId?: string;
  ErrorCode?: string;
  ErrorMessage?: string;
}

/** EventBridge's time format: seconds, no fraction. */
export const eventTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Events on their way: each entry becomes EventBridge's event (version, id, detail-type,
 * source, account, time, region, resources, detail), matched against the enabled rules of
 * its bus, and sent to each matching rule's targets.
 */
export class EventRouter {
  /** Target retries still waiting on the clock. */
  readonly background = new Set<Promise<unknown>>();
  private readonly patterns = new Map<string, Pattern>();

  constructor(
    private readonly context: SandboxContext,
    private readonly store: EventsStore,
  ) {}

  async putEntries(
    scope: { region: string; accountId: string },
    entries: Array<Record<string, unknown>>,
    defaultBus = 'default',
  ): Promise<EntryResult[]> {
    const results: EntryResult[] = [];
    for (const entry of entries) results.push(await this.putEntry(scope, entry, defaultBus));
    return results;
  }

  /** The port other modules put events through (S3, Scheduler, bus targets). */
  async putFromService(
    arn: string,
    entries: EventEntry[],
    caller?: DeliveryCaller,
  ): Promise<DeliveryOutcome> {
    const [, , , region = this.context.region, accountId = this.context.accountId, resource = ''] =
      arn.split(':');
    const name = resource.replace(/^event-bus\//, '');
    const bus = this.store.getBus(region, name);
    const target = { arn, action: 'events:PutEvents', policy: undefined, exists: bus !== undefined };
    return deliverChecked(this.context, caller, target, async () => {
      for (const entry of entries) {
        await this.putEntry(
          { region, accountId },
          { ...entry, EventBusName: name, Time: entry.Time },
          name,
          true,
        );
      }
    });
  }

  private async putEntry(
    scope: { region: string; accountId: string },
    entry: Record<string, unknown>,
    defaultBus: string,
    fromService = false,
  ): Promise<EntryResult> {
    const problem = entryProblem(entry, fromService);
    if (problem) return problem;
    const busName = busNameOf(entry.EventBusName) ?? defaultBus;
    if (!this.store.getBus(scope.region, busName)) {
      return { ErrorCode: 'ResourceNotFoundException', ErrorMessage: `Event bus ${busName} does not exist.` };
    }
    const time =
      entry.Time instanceof Date
        ? entry.Time.getTime()
        : typeof entry.Time === 'number'
          ? entry.Time
          : undefined;
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': entry.DetailType as string,
      source: entry.Source as string,
      account: scope.accountId,
      time: eventTime(time !== undefined ? (time < 1e11 ? time * 1000 : time) : this.context.clock.now()),
      region: scope.region,
      resources: (entry.Resources as string[] | undefined) ?? [],
      detail: JSON.parse(entry.Detail as string) as unknown,
    };
    await this.route(event, scope.region, busName, scope.accountId);
    return { EventId: event.id };
  }

  /** Sends an event to the targets of every enabled rule on the bus whose pattern matches. */
  async route(
    event: Record<string, unknown>,
    region: string,
    busName: string,
    accountId: string,
  ): Promise<void> {
    for (const rule of this.store.rulesOn(region, busName)) {
      if (rule.state === 'DISABLED' || rule.eventPattern === undefined) continue;
      if (!matchesPattern(this.pattern(rule.eventPattern), event)) continue;
      await this.toTargets(rule, event, accountId);
    }
  }

  async toTargets(rule: RuleRecord, event: Record<string, unknown>, accountId: string): Promise<void> {
    const ref = { arn: ruleArn(rule, accountId), name: rule.name, account: accountId };
    for (const target of rule.targets) {
      await deliverToTarget(this.context, ref, target as Target, event, this.background);
    }
  }

  busArn(region: string, name: string, accountId: string): string {
    return busArn({ region, name }, accountId);
  }

  private pattern(text: string): Pattern {
    let pattern = this.patterns.get(text);
    if (!pattern) {
      pattern = parsePattern(text);
      this.patterns.set(text, pattern);
    }
    return pattern;
  }
}

function busNameOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return /:event-bus\/(.+)$/.exec(value)?.[1] ?? value;
}

/** What PutEvents says of an entry it cannot take. */
function entryProblem(entry: Record<string, unknown>, fromService: boolean): EntryResult | undefined {
  for (const member of ['Source', 'DetailType', 'Detail']) {
    if (typeof entry[member] !== 'string' || entry[member] === '') {
      return {
        ErrorCode: 'InvalidArgument',
        ErrorMessage: `Parameter ${member} is not valid. Reason: ${member} is a required argument.`,
      };
    }
  }
  let detail: unknown;
  try {
    detail = JSON.parse(entry.Detail as string);
  } catch {
    detail = undefined;
  }
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) {
    return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
  }
  if (!fromService && (entry.Source as string).startsWith('aws.')) {
    return {
      ErrorCode: 'NotAuthorizedForSourceException',
      ErrorMessage: `Not authorized for the source ${String(entry.Source)}.`,
    };
  }
  return undefined;
}
