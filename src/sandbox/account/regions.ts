import { createHash } from 'node:crypto';

/** The commercial regions DescribeRegions lists (opt-in regions left out, as for a new account). */
export const REGIONS: readonly string[] = [
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ca-central-1',
  'eu-central-1',
  'eu-north-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'sa-east-1',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
];

/** Zone letters per region where AWS differs from the usual a, b, c. */
const ZONE_LETTERS: Readonly<Record<string, string>> = {
  'us-east-1': 'abcdef',
  'us-west-1': 'ac',
  'us-west-2': 'abcd',
  'ap-northeast-1': 'acd',
  'ap-northeast-2': 'abcd',
};

export interface AvailabilityZone {
  zoneName: string;
  zoneId: string;
  regionName: string;
}

const DIRECTIONS: Readonly<Record<string, string>> = {
  northeast: 'ne',
  southeast: 'se',
  northwest: 'nw',
  southwest: 'sw',
  central: 'c',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
};

/** The availability zones of a region, in order; any region name gets three. */
export function availabilityZones(region: string): AvailabilityZone[] {
  const [area = region, direction = '', number = ''] = region.split('-');
  const code = `${area}${DIRECTIONS[direction] ?? direction.slice(0, 1)}${number}`;
  return [...(ZONE_LETTERS[region] ?? 'abc')].map((letter, index) => ({
    zoneName: `${region}${letter}`,
    zoneId: `${code}-az${index + 1}`,
    regionName: region,
  }));
}

/**
 * An EC2-style id (`vpc-` and 17 hex digits) that is the same every time for the same
 * seed, so what an account holds before any deploy (default VPC, public images) keeps
 * its ids across sandbox restarts and data dirs.
 */
export function stableId(prefix: string, ...seed: string[]): string {
  return `${prefix}-${createHash('sha256').update(seed.join('\n')).digest('hex').slice(0, 17)}`;
}
