import { CdkdError } from '../../errors.js';
import type { PortMapping } from './service-model.js';

/**
 * The host ports of each replica (task) of a service run here: the first publishes the
 * template's mappings as they are; replica k (0-based) each of them k ports higher, the way
 * one would run copies of a server side by side. Refused before anything runs when two
 * replicas would publish the same host port (mappings k or fewer ports apart) or a port
 * would pass 65535.
 */
export function replicaPorts(
  ports: readonly PortMapping[],
  replicas: number,
  service: string,
): PortMapping[][] {
  const all = Array.from({ length: replicas }, (_, replica) =>
    ports.map((port) => ({ ...port, hostPort: port.hostPort + replica })),
  );
  const owner = new Map<string, number>();
  for (const [replica, mappings] of all.entries()) {
    for (const mapping of mappings) {
      const key = `${mapping.hostPort}/${mapping.protocol}`;
      const other = owner.get(key);
      if (mapping.hostPort > 65535 || (other !== undefined && other !== replica)) {
        throw new CdkdError(
          'LOCAL_SERVICE_PORTS_COLLIDE',
          mapping.hostPort > 65535
            ? `ECS service ${service}: replica ${replica + 1} would publish port ${mapping.hostPort - replica} at ${mapping.hostPort}, past 65535.`
            : `ECS service ${service}: replicas ${other! + 1} and ${replica + 1} would both publish host port ${key} (each replica after the first publishes every mapping one port higher than the one before).`,
          { hint: 'Run fewer replicas with --replicas (1 publishes the mappings as they are).' },
        );
      }
      owner.set(key, replica);
    }
  }
  return all;
}

/** How long the service waits before replacing a task that stopped: 1 s, doubling with each stop in a row, at most 30 s. */
export function restartDelayMs(stopsInARow: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, stopsInARow - 1));
}

/** A task that ran this long before stopping starts the count of stops in a row again. */
export const STEADY_RUN_MS = 60_000;

/** The service's DesiredCount when the template holds a number, else 1 (ECS's default). */
export function desiredCount(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 1;
}
