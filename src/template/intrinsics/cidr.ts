import type { IntrinsicHandler } from '../context.js';
import { evaluationError } from '../errors.js';
import { childPath } from '../path.js';
import { argList, evalInteger, evalString } from './args.js';

interface Block {
  readonly version: 4 | 6;
  readonly address: bigint;
  readonly prefix: number;
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function parseIPv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

/** Parses `a.b.c.d/n` or an IPv6 `x::/n`; undefined when malformed. */
export function parseCidr(text: string): Block | undefined {
  const [ip, prefixText, extra] = text.trim().split('/');
  if (ip === undefined || prefixText === undefined || extra !== undefined || !/^\d{1,3}$/.test(prefixText)) {
    return undefined;
  }
  const prefix = Number(prefixText);
  const v4 = parseIPv4(ip);
  if (v4 !== undefined) return prefix <= 32 ? { version: 4, address: v4, prefix } : undefined;
  const v6 = parseIPv6(ip);
  if (v6 !== undefined) return prefix <= 128 ? { version: 6, address: v6, prefix } : undefined;
  return undefined;
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (≥ 2) of zero groups as `::`. */
export function formatIPv6(address: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((address >> BigInt(112 - 16 * i)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function formatAddress(version: 4 | 6, address: bigint): string {
  if (version === 6) return formatIPv6(address);
  return [24n, 16n, 8n, 0n].map((shift) => String((address >> shift) & 0xffn)).join('.');
}

/**
 * `count` consecutive subnets with `cidrBits` host bits each, carved from the start of
 * `ipBlock`'s network (as CloudFormation's Fn::Cidr). Throws a plain message on bad input.
 */
export function cidrSubnets(ipBlock: string, count: number, cidrBits: number): string[] {
  const block = parseCidr(ipBlock);
  if (!block) throw new Error(`"${ipBlock}" is not an IPv4 or IPv6 CIDR block`);
  const width = block.version === 4 ? 32 : 128;
  if (count < 1 || count > 256) throw new Error(`count must be between 1 and 256, got ${count}`);
  const newPrefix = width - cidrBits;
  if (cidrBits < 0 || newPrefix < block.prefix) {
    throw new Error(
      `cidrBits ${cidrBits} does not fit in /${block.prefix} (must be 0 to ${width - block.prefix})`,
    );
  }
  const available = 1n << BigInt(newPrefix - block.prefix);
  if (BigInt(count) > available) {
    throw new Error(`${count} subnets of /${newPrefix} do not fit in ${ipBlock} (room for ${available})`);
  }
  const hostMask = (1n << BigInt(width - block.prefix)) - 1n;
  const network = block.address & ~hostMask;
  const size = 1n << BigInt(cidrBits);
  return Array.from(
    { length: count },
    (_, i) => `${formatAddress(block.version, network + BigInt(i) * size)}/${newPrefix}`,
  );
}

export const evaluateCidr: IntrinsicHandler = (args, ctx, path, evaluate) => {
  const [blockArg, countArg, bitsArg] = argList('Fn::Cidr', args, path, 3);
  const fnPath = childPath(path, 'Fn::Cidr');
  const ipBlock = evalString(blockArg, ctx, childPath(fnPath, 0), evaluate, 'Fn::Cidr', 'ipBlock');
  const count = evalInteger(countArg, ctx, childPath(fnPath, 1), evaluate, 'Fn::Cidr', 'count');
  const bits = evalInteger(bitsArg, ctx, childPath(fnPath, 2), evaluate, 'Fn::Cidr', 'cidrBits');
  try {
    return cidrSubnets(ipBlock, count, bits);
  } catch (error) {
    throw evaluationError(path, `Fn::Cidr: ${(error as Error).message}`);
  }
};
