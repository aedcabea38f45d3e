import type { ServiceModuleFactory } from '../../service-module.js';
import { restJsonApiModule } from '../api-module.js';
import { ScheduleRunner } from './firing.js';
import { groupOps } from './group-ops.js';
import { groupResourceHandler, SCHEDULE, SCHEDULE_GROUP, scheduleResourceHandler } from './resources.js';
import { scheduleOps } from './schedule-ops.js';
import { groupArn, scheduleArn, SchedulerStore } from './store.js';

const ROUTES = [
  { method: 'POST', path: '/schedules/{Name}', operation: 'CreateSchedule' },
  { method: 'GET', path: '/schedules/{Name}', operation: 'GetSchedule' },
  { method: 'PUT', path: '/schedules/{Name}', operation: 'UpdateSchedule' },
  { method: 'DELETE', path: '/schedules/{Name}', operation: 'DeleteSchedule' },
  { method: 'GET', path: '/schedules', operation: 'ListSchedules' },
  { method: 'POST', path: '/schedule-groups/{Name}', operation: 'CreateScheduleGroup' },
  { method: 'GET', path: '/schedule-groups/{Name}', operation: 'GetScheduleGroup' },
  { method: 'DELETE', path: '/schedule-groups/{Name}', operation: 'DeleteScheduleGroup' },
  { method: 'GET', path: '/schedule-groups', operation: 'ListScheduleGroups' },
  { method: 'POST', path: '/tags/{ResourceArn}', operation: 'TagResource' },
  { method: 'GET', path: '/tags/{ResourceArn}', operation: 'ListTagsForResource' },
  { method: 'DELETE', path: '/tags/{ResourceArn}', operation: 'UntagResource' },
];

/**
 * EventBridge Scheduler over REST-JSON: schedules in groups (every account and region has
 * `default`), fired on the sandbox's clock (firing.ts); also AWS::Scheduler::Schedule and
 * AWS::Scheduler::ScheduleGroup for Cloud Control.
 */
export const createSchedulerService: ServiceModuleFactory = async (context) => {
  const now = () => context.clock.now();
  const store = await SchedulerStore.load(context.storage);
  const runner = new ScheduleRunner(context, store);
  context.resources.register(SCHEDULE, scheduleResourceHandler(store, runner, now));
  context.resources.register(SCHEDULE_GROUP, groupResourceHandler(store, runner, now));
  const module = restJsonApiModule({
    name: 'scheduler',
    routes: ROUTES,
    handlers: { ...scheduleOps(store, runner, now), ...groupOps(store, runner, now) },
    inventory: () => ({
      [SCHEDULE]: store.allSchedules().map((s) => ({
        id: s.name,
        region: s.region,
        arn: scheduleArn(s),
        group: s.groupName,
        state: s.state,
        expression: s.scheduleExpression,
      })),
      [SCHEDULE_GROUP]: store.allGroups().map((g) => ({ id: g.name, region: g.region, arn: groupArn(g) })),
    }),
  });
  return {
    ...module,
    started() {
      for (const schedule of store.allSchedules()) runner.arm(schedule);
    },
    close: () => runner.close(),
  };
};
