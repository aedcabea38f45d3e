import { randomString } from '../../ids.js';
import type { SandboxContext } from '../../service-module.js';
import { clusterName, handlerOf, SERVICE_TYPE } from './call.js';

export interface Deployment {
  id: string;
  status: 'PRIMARY' | 'ACTIVE';
  taskDefinition: string;
  desiredCount: number;
  createdAt: number;
  /** When the deployment's tasks are all running: the latency model's create or update time. */
  completesAt: number;
}

interface Draining {
  serviceArn: string;
  cluster: string;
  region: string;
  accountId: string;
  /** The service as it was when deleted, in ECS's shape. */
  last: Record<string, unknown>;
  inactiveAt: number;
}

/**
 * What ECS's scheduler would be doing for each service: its deployments (the sandbox runs no
 * task, so a deployment's tasks count as running once the latency model's time has passed,
 * and an older deployment is gone then, as ECS drains it), and the services being deleted
 * (DRAINING until the latency model's delete time, then INACTIVE). Kept in memory: after a
 * restart every service is steady.
 */
export class ServiceDeployments {
  private readonly deployments = new Map<string, Deployment[]>();
  private readonly draining = new Map<string, Draining>();

  constructor(private readonly context: SandboxContext) {}

  private now(): number {
    return this.context.clock.now();
  }

  /** Starts a deployment of `taskDefinition` (create: the first; update: a new PRIMARY). */
  start(serviceArn: string, taskDefinition: string, desiredCount: number, action: 'create' | 'update'): void {
    const now = this.now();
    const older = (this.deployments.get(serviceArn) ?? [])
      .filter((deployment) => deployment.completesAt > now)
      .map((deployment) => ({ ...deployment, status: 'ACTIVE' as const }));
    const deployment: Deployment = {
      id: `ecs-svc/${randomString(19, '0123456789')}`,
      status: 'PRIMARY',
      taskDefinition,
      desiredCount,
      createdAt: now,
      completesAt: now + this.context.latency.forType(SERVICE_TYPE, action),
    };
    this.deployments.set(serviceArn, [deployment, ...older]);
  }

  /** A desired-count change: the primary deployment scales, settling after the update time. */
  scale(serviceArn: string, taskDefinition: string, desiredCount: number): void {
    const [primary] = this.deployments.get(serviceArn) ?? [];
    if (!primary || primary.taskDefinition !== taskDefinition) {
      this.start(serviceArn, taskDefinition, desiredCount, 'update');
      return;
    }
    primary.desiredCount = desiredCount;
    primary.completesAt = Math.max(
      primary.completesAt,
      this.now() + this.context.latency.forType(SERVICE_TYPE, 'update'),
    );
  }

  /** The service's deployments in ECS's shape; one steady PRIMARY for a service it has no record of. */
  render(serviceArn: string, taskDefinition: string, desiredCount: number): Array<Record<string, unknown>> {
    const now = this.now();
    const known = this.deployments.get(serviceArn);
    const current = (known ?? []).filter(
      (deployment) => deployment.status === 'PRIMARY' || deployment.completesAt > now,
    );
    const list: Deployment[] =
      current.length > 0
        ? current
        : [
            {
              id: `ecs-svc/${serviceArn.length}`,
              status: 'PRIMARY',
              taskDefinition,
              desiredCount,
              createdAt: now,
              completesAt: 0,
            },
          ];
    return list.map((deployment) => {
      const done = deployment.completesAt <= now;
      const running = done && deployment.status === 'PRIMARY' ? deployment.desiredCount : 0;
      return {
        id: deployment.id,
        status: deployment.status,
        taskDefinition: deployment.taskDefinition,
        desiredCount: deployment.desiredCount,
        pendingCount: done ? 0 : deployment.desiredCount,
        runningCount: running,
        failedTasks: 0,
        createdAt: deployment.createdAt / 1000,
        updatedAt: deployment.createdAt / 1000,
        rolloutState: done ? 'COMPLETED' : 'IN_PROGRESS',
        rolloutStateReason: done
          ? `ECS deployment ${deployment.id} completed.`
          : `ECS deployment ${deployment.id} in progress.`,
      };
    });
  }

  /** The service is deleted: DRAINING until the latency model's delete time, then INACTIVE. */
  drain(
    serviceArn: string,
    cluster: string,
    region: string,
    accountId: string,
    last: Record<string, unknown>,
  ): void {
    this.deployments.delete(serviceArn);
    this.draining.set(serviceArn, {
      serviceArn,
      cluster,
      region,
      accountId,
      last,
      inactiveAt: this.now() + this.context.latency.forType(SERVICE_TYPE, 'delete'),
    });
  }

  /** A deleted service as DescribeServices shows it (DRAINING or INACTIVE), if one was deleted. */
  deleted(serviceArn: string): Record<string, unknown> | undefined {
    const record = this.draining.get(serviceArn);
    if (!record) return undefined;
    const status = record.inactiveAt > this.now() ? 'DRAINING' : 'INACTIVE';
    return { ...record.last, status, desiredCount: 0, runningCount: 0, pendingCount: 0 };
  }

  forget(serviceArn: string): void {
    this.draining.delete(serviceArn);
  }

  /** Services in the cluster still ACTIVE (in the store). */
  activeIn(region: string, accountId: string, cluster: string): number {
    return handlerOf(this.context, SERVICE_TYPE)
      .list(region, accountId)
      .filter((entry) => clusterName(entry.model.Cluster) === cluster).length;
  }

  /** Whether a service deleted from the cluster is still DRAINING (ECS refuses to delete the cluster then). */
  drainingIn(region: string, accountId: string, cluster: string): boolean {
    const now = this.now();
    return [...this.draining.values()].some(
      (record) =>
        record.region === region &&
        record.accountId === accountId &&
        record.cluster === cluster &&
        record.inactiveAt > now,
    );
  }
}
