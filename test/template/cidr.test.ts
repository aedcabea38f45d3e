import { describe, expect, it } from 'vitest';
import { cidrSubnets } from '../../src/template/index.js';
import { formatIPv6, parseCidr } from '../../src/template/intrinsics/cidr.js';

describe('Fn::Cidr math', () => {
  it.each<[string, number, number, string[]]>([
    ['10.0.0.0/16', 3, 8, ['10.0.0.0/24', '10.0.1.0/24', '10.0.2.0/24']],
    ['192.168.0.0/24', 4, 6, ['192.168.0.0/26', '192.168.0.64/26', '192.168.0.128/26', '192.168.0.192/26']],
    ['10.1.2.3/16', 1, 8, ['10.1.0.0/24']],
    ['10.0.0.0/8', 2, 20, ['10.0.0.0/12', '10.16.0.0/12']],
    ['172.16.0.0/12', 2, 16, ['172.16.0.0/16', '172.17.0.0/16']],
    ['10.0.0.0/24', 1, 8, ['10.0.0.0/24']],
    ['2001:db8:1234:1a00::/56', 2, 64, ['2001:db8:1234:1a00::/64', '2001:db8:1234:1a01::/64']],
  ])('%s, count %i, %i bits', (block, count, bits, expected) => {
    expect(cidrSubnets(block, count, bits)).toEqual(expected);
  });

  it('carves 256 IPv6 /64s from a /56, as CDK dual-stack VPCs do', () => {
    const subnets = cidrSubnets('2600:1f16:abc:de00::/56', 256, 64);
    expect(subnets).toHaveLength(256);
    expect(subnets[1]).toBe('2600:1f16:abc:de01::/64');
    expect(subnets[255]).toBe('2600:1f16:abc:deff::/64');
  });

  it.each<[string, number, number, string]>([
    ['10.0.0.0/16', 0, 8, 'count must be between 1 and 256'],
    ['10.0.0.0/16', 257, 8, 'count must be between 1 and 256'],
    ['10.0.0.0/24', 1, 9, 'cidrBits 9 does not fit in /24'],
    ['10.0.0.0/24', 3, 7, '3 subnets of /25 do not fit'],
    ['300.0.0.0/16', 1, 8, 'is not an IPv4 or IPv6 CIDR block'],
    ['10.0.0.0/33', 1, 1, 'is not an IPv4 or IPv6 CIDR block'],
    ['2001:db8::1::/64', 1, 8, 'is not an IPv4 or IPv6 CIDR block'],
    ['10.0.0.0', 1, 8, 'is not an IPv4 or IPv6 CIDR block'],
  ])('%s, count %i, %i bits fails: %s', (block, count, bits, message) => {
    expect(() => cidrSubnets(block, count, bits)).toThrow(message);
  });

  it.each<[string, string]>([
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['fe80::', 'fe80::'],
  ])('formats %s as %s (RFC 5952)', (input, expected) => {
    const parsed = parseCidr(`${input}/128`);
    expect(parsed).toBeDefined();
    expect(formatIPv6(parsed!.address)).toBe(expected);
  });
});
