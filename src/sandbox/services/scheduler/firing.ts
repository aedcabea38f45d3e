import { randomUUID } from 'node:crypto';
import type { ClockTimer } from '../../clock/clock.js';
import { retrying, settled, type RetryResult } from '../../delivery/retries.js';
import { sendToTarget } from '../../delivery/target-send.js';
import { roleCaller, type DeliveryOutcome } from '../../ports/delivery.js';
import { roleReader, sqsSender } from '../../ports/index.js';
import { nextFireTime, parseScheduleExpression } from '../../schedules/expression.js';
import type { SandboxContext } from '../../service-module.js';
import { scheduleArn, type ScheduleRecord, type SchedulerStore } from './store.js';

const key = (s: ScheduleRecord): string => scheduleArn(s);

/**
 * Enabled schedules fire on the sandbox's clock: each has a timer for its next time within
 * its StartDate and EndDate, read in its time zone. A flexible time window fires at the
 * window's start (deterministic, where AWS picks a time within it). The target is called as
 * the schedule's role, retried under its RetryPolicy, and what fails for good goes to its
 * dead-letter queue; a one-time schedule with ActionAfterCompletion DELETE is deleted after.
 */
export class ScheduleRunner {
  private readonly timers = new Map<string, ClockTimer>();
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    private readonly context: SandboxContext,
    private readonly store: SchedulerStore,
  ) {}

  arm(schedule: ScheduleRecord): void {
    this.disarm(schedule);
    if (schedule.state !== 'ENABLED') return;
    const expression = parseScheduleExpression(schedule.scheduleExpression);
    const clock = this.context.clock;
    const start = Math.max(schedule.startDate ?? schedule.modifiedAt, schedule.modifiedAt);
    const options = { start, ...(schedule.timezone ? { timeZone: schedule.timezone } : {}) };
    const next = (after: number): void => {
      const due = nextFireTime(expression, after, options);
      if (due === undefined || (schedule.endDate !== undefined && due >= schedule.endDate)) {
        void this.completed(schedule, expression.kind === 'at');
        return;
      }
      this.timers.set(
        key(schedule),
        clock.at(due, async () => {
          const live = this.store.schedule(
            schedule.accountId,
            schedule.region,
            schedule.groupName,
            schedule.name,
          );
          if (live !== schedule) return;
          // Next after now: a clock set far ahead fires a missed schedule once, not once per period.
          next(Math.max(due, clock.now()));
          await this.fire(schedule);
        }),
      );
    };
    next(Math.max(clock.now(), (schedule.startDate ?? 0) - 1));
  }

  disarm(schedule: ScheduleRecord): void {
    this.timers.get(key(schedule))?.cancel();
    this.timers.delete(key(schedule));
  }

  async close(): Promise<void> {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    await Promise.allSettled([...this.background]);
  }

  /** A schedule that will not fire again; a one-time one set to DELETE goes once it has fired. */
  private async completed(schedule: ScheduleRecord, oneTime: boolean): Promise<void> {
    this.disarm(schedule);
    if (!oneTime || schedule.actionAfterCompletion !== 'DELETE') return;
    const live = this.store.schedule(schedule.accountId, schedule.region, schedule.groupName, schedule.name);
    if (live === schedule) await this.store.deleteSchedule(schedule);
  }

  private async fire(schedule: ScheduleRecord): Promise<void> {
    const target = schedule.target;
    const input = target.Input ?? '{}';
    const startedAt = this.context.clock.now();
    const policy = {
      maxAttempts: (target.RetryPolicy?.MaximumRetryAttempts ?? 185) + 1,
      maxAgeMs: (target.RetryPolicy?.MaximumEventAgeInSeconds ?? 86_400) * 1000,
    };
    const first = await this.send(schedule, input);
    const done = settled(first, 1);
    if (done) return this.toDeadLetterQueue(schedule, input, done);
    const retries = retrying(this.context.clock, policy, first, startedAt, () =>
      this.send(schedule, input),
    ).then((result) => this.toDeadLetterQueue(schedule, input, result));
    this.background.add(retries);
    void retries.finally(() => this.background.delete(retries));
  }

  private async send(schedule: ScheduleRecord, input: string): Promise<DeliveryOutcome> {
    const target = schedule.target;
    const arn = scheduleArn(schedule);
    const roles = roleReader.of(this.context);
    if (!roles?.assumableBy(target.RoleArn, 'scheduler.amazonaws.com')) {
      return {
        delivered: false,
        code: 'AccessDenied',
        message: `EventBridge Scheduler cannot assume the role ${target.RoleArn} for the target ${target.Arn}`,
      };
    }
    const caller = roleCaller('scheduler', arn, target.RoleArn, roles.identityPolicies(target.RoleArn));
    const bus = target.EventBridgeParameters;
    return sendToTarget(this.context, target.Arn, input, caller, {
      sender: 'EventBridge Scheduler',
      ...(target.SqsParameters?.MessageGroupId ? { groupId: target.SqsParameters.MessageGroupId } : {}),
      ...(bus
        ? { busEntry: { Source: bus.Source, DetailType: bus.DetailType, Detail: input, Resources: [arn] } }
        : {}),
    });
  }

  /** Scheduler's dead-letter message: the target's input, with why it was not delivered as attributes. */
  private async toDeadLetterQueue(
    schedule: ScheduleRecord,
    input: string,
    final: RetryResult,
  ): Promise<void> {
    const dlq = schedule.target.DeadLetterConfig?.Arn;
    if (final.outcome.delivered || !dlq) return;
    const arn = scheduleArn(schedule);
    const roles = roleReader.of(this.context);
    const policies = roles?.identityPolicies(schedule.target.RoleArn) ?? [];
    await sqsSender.of(this.context)?.send(dlq, input, {
      caller: roleCaller('scheduler', arn, schedule.target.RoleArn, policies),
      attributes: {
        SCHEDULE_ARN: { DataType: 'String', StringValue: arn },
        TARGET_ARN: { DataType: 'String', StringValue: schedule.target.Arn },
        ERROR_CODE: { DataType: 'String', StringValue: final.outcome.code },
        ERROR_MESSAGE: { DataType: 'String', StringValue: final.outcome.message },
        EXECUTION_ID: { DataType: 'String', StringValue: randomUUID() },
        RETRY_ATTEMPTS: { DataType: 'String', StringValue: String(final.attempts - 1) },
      },
    });
  }
}
