import { describe, expect, it } from 'vitest';
import { desiredCount, replicaPorts, restartDelayMs } from '../../src/local/service/replicas.js';

const tcp = (hostPort: number, containerPort = hostPort) => ({
  containerPort,
  hostPort,
  protocol: 'tcp' as const,
});

describe('replicaPorts', () => {
  it.each([
    ['one replica: the mappings as they are', [tcp(8080), tcp(80)], 1, [[8080, 80]]],
    ['each replica one port higher', [tcp(8080)], 3, [[8080], [8081], [8082]]],
    [
      'mappings far apart do not collide',
      [tcp(8080), tcp(80)],
      2,
      [
        [8080, 80],
        [8081, 81],
      ],
    ],
    ['no replica: no ports', [tcp(8080)], 0, []],
  ])('%s', (_case, ports, replicas, expected) => {
    expect(replicaPorts(ports, replicas, 'Svc/Web').map((task) => task.map((p) => p.hostPort))).toEqual(
      expected,
    );
  });

  it('keeps the container port and protocol of each mapping', () => {
    expect(replicaPorts([{ containerPort: 53, hostPort: 5353, protocol: 'udp' }], 2, 'S/W')[1]).toEqual([
      { containerPort: 53, hostPort: 5354, protocol: 'udp' },
    ]);
  });

  it.each([
    [
      'adjacent mappings',
      [tcp(8080), tcp(8081)],
      2,
      'replicas 1 and 2 would both publish host port 8081/tcp',
    ],
    ['past 65535', [tcp(65535)], 2, 'replica 2 would publish port 65535 at 65536, past 65535'],
  ])('refuses %s', (_case, ports, replicas, message) => {
    expect(() => replicaPorts(ports, replicas, 'Svc/Web')).toThrow(message);
  });

  it('lets the same port number of another protocol pass', () => {
    const ports = [tcp(8080), { containerPort: 8081, hostPort: 8081, protocol: 'udp' as const }];
    expect(replicaPorts(ports, 2, 'S/W')).toHaveLength(2);
  });
});

describe('restartDelayMs', () => {
  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [5, 16_000],
    [6, 30_000],
    [20, 30_000],
  ])('after %i stops in a row: %i ms', (stops, ms) => {
    expect(restartDelayMs(stops)).toBe(ms);
  });
});

describe('desiredCount', () => {
  it.each([
    [3, 3],
    [0, 0],
    [undefined, 1],
    [{ Ref: 'Count' }, 1],
    [1.5, 1],
  ])('%j → %i', (value, count) => {
    expect(desiredCount(value)).toBe(count);
  });
});
