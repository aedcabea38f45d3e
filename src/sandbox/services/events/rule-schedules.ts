import { randomUUID } from 'node:crypto';
import type { ClockTimer } from '../../clock/clock.js';
import { nextFireTime, parseScheduleExpression } from '../../schedules/expression.js';
import type { SandboxContext } from '../../service-module.js';
import { eventTime, type EventRouter } from './router.js';
import { ruleArn, type RuleRecord } from './store.js';

const key = (rule: RuleRecord): string => `${rule.region}/${rule.busName}/${rule.name}`;

/**
 * Rules with a ScheduleExpression fire on the sandbox's clock: each enabled one has a timer
 * for its next time, whose firing sends EventBridge's "Scheduled Event" to the rule's targets
 * and sets the next. A rate counts from when the rule was (re)armed; a cron is read in UTC.
 */
export class RuleSchedules {
  private readonly timers = new Map<string, ClockTimer>();

  constructor(
    private readonly context: SandboxContext,
    private readonly router: EventRouter,
    private readonly accountOf: (rule: RuleRecord) => string,
    private readonly current: (rule: RuleRecord) => RuleRecord | undefined,
  ) {}

  /** Sets (or clears) the rule's timer after a change to it. */
  arm(rule: RuleRecord): void {
    this.disarm(rule);
    if (rule.state === 'DISABLED' || rule.scheduleExpression === undefined) return;
    const expression = parseScheduleExpression(rule.scheduleExpression);
    const start = this.context.clock.now();
    const schedule = (after: number): void => {
      const due = nextFireTime(expression, after, { start });
      if (due === undefined) return;
      this.timers.set(
        key(rule),
        this.context.clock.at(due, async () => {
          const live = this.current(rule);
          if (!live) return;
          // Next after now: a clock set far ahead fires a missed schedule once, not once per period.
          schedule(Math.max(due, this.context.clock.now()));
          await this.fire(live, due);
        }),
      );
    };
    schedule(start);
  }

  disarm(rule: RuleRecord): void {
    this.timers.get(key(rule))?.cancel();
    this.timers.delete(key(rule));
  }

  close(): void {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  private async fire(rule: RuleRecord, due: number): Promise<void> {
    const account = this.accountOf(rule);
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account,
      time: eventTime(due),
      region: rule.region,
      resources: [ruleArn(rule, account)],
      detail: {},
    };
    await this.router.toTargets(rule, event, account);
  }
}
