import { createHash, randomUUID } from 'node:crypto';
import { StatesError } from './errors.js';

/**
 * The intrinsic functions (`States.Format('{} of {}', $.a, $.b)` ...): parsed from the
 * call's text, arguments being literals (strings in single quotes, numbers, true, false,
 * null), paths (`$.x`, `$$.Execution.Id`, `$var`) or other calls.
 */
export function isIntrinsic(text: string): boolean {
  return /^States\.[A-Za-z0-9]+\(/.test(text.trim());
}

export function evaluateIntrinsic(text: string, resolvePath: (path: string) => unknown): unknown {
  const parser = new Parser(text.trim(), resolvePath);
  const value = parser.call();
  parser.end();
  return value;
}

class Parser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly resolvePath: (path: string) => unknown,
  ) {}

  end(): void {
    this.space();
    if (this.at !== this.text.length) this.fail('unexpected text after the call');
  }

  call(): unknown {
    const name = /^States\.[A-Za-z0-9]+/.exec(this.text.slice(this.at))?.[0];
    if (!name) this.fail('expected a States.* function');
    this.at += name!.length;
    this.expect('(');
    const args: unknown[] = [];
    this.space();
    if (this.text[this.at] !== ')') {
      for (;;) {
        args.push(this.argument());
        this.space();
        if (this.text[this.at] === ',') {
          this.at += 1;
          continue;
        }
        break;
      }
    }
    this.expect(')');
    return apply(name!, args);
  }

  private argument(): unknown {
    this.space();
    const rest = this.text.slice(this.at);
    if (rest.startsWith("'")) return this.string();
    if (rest.startsWith('States.')) return this.call();
    if (rest.startsWith('$')) {
      const path = /^\$[^,)\s]*/.exec(rest)![0];
      this.at += path.length;
      return this.resolvePath(path);
    }
    const literal = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(rest)?.[0];
    if (!literal) this.fail('expected an argument');
    this.at += literal!.length;
    return JSON.parse(literal!);
  }

  private string(): string {
    let out = '';
    this.at += 1;
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === '\\') {
        out += this.text[this.at + 1] ?? '';
        this.at += 2;
      } else if (char === "'") {
        this.at += 1;
        return out;
      } else {
        out += char;
        this.at += 1;
      }
    }
    return this.fail('unterminated string');
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at += 1;
  }

  private expect(char: string): void {
    this.space();
    if (this.text[this.at] !== char) this.fail(`expected '${char}'`);
    this.at += 1;
  }

  private fail(reason: string): never {
    throw new StatesError('States.IntrinsicFailure', `${reason} in ${this.text} (at ${this.at + 1})`);
  }
}

function apply(name: string, args: unknown[]): unknown {
  const fail = (reason: string): never => {
    throw new StatesError('States.IntrinsicFailure', `${name}: ${reason}`);
  };
  const text = (i: number): string =>
    typeof args[i] === 'string' ? (args[i] as string) : fail(`argument ${i + 1} must be a string`);
  const num = (i: number): number =>
    typeof args[i] === 'number' ? (args[i] as number) : fail(`argument ${i + 1} must be a number`);
  const list = (i: number): unknown[] =>
    Array.isArray(args[i]) ? (args[i] as unknown[]) : fail(`argument ${i + 1} must be an array`);
  switch (name) {
    case 'States.Format': {
      const values = args.slice(1);
      let n = 0;
      return text(0).replace(/\\?\{\}/g, (match) => {
        if (match.startsWith('\\')) return '{}';
        if (n >= values.length) fail('more {} than arguments');
        const value = values[n++];
        return typeof value === 'string' ? value : JSON.stringify(value);
      });
    }
    case 'States.StringToJson':
      try {
        return JSON.parse(text(0));
      } catch {
        return fail('the string is not JSON');
      }
    case 'States.JsonToString':
      return JSON.stringify(args[0]);
    case 'States.Array':
      return args;
    case 'States.ArrayPartition': {
      const items = list(0);
      const size = num(1);
      if (size < 1) fail('the chunk size must be positive');
      const chunks: unknown[][] = [];
      for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
      return chunks;
    }
    case 'States.ArrayContains':
      return list(0).some((item) => JSON.stringify(item) === JSON.stringify(args[1]));
    case 'States.ArrayRange': {
      const [start, end, step] = [num(0), num(1), num(2)];
      if (step === 0) fail('the step must not be 0');
      const out: number[] = [];
      for (let v = start; step > 0 ? v <= end : v >= end; v += step) out.push(v);
      return out;
    }
    case 'States.ArrayGetItem': {
      const items = list(0);
      const index = num(1);
      if (index < 0 || index >= items.length) fail('the index is out of bounds');
      return items[index];
    }
    case 'States.ArrayLength':
      return list(0).length;
    case 'States.ArrayUnique': {
      const seen = new Set<string>();
      return list(0).filter((item) => {
        const key = JSON.stringify(item);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    case 'States.Base64Encode':
      return Buffer.from(text(0), 'utf8').toString('base64');
    case 'States.Base64Decode':
      return Buffer.from(text(0), 'base64').toString('utf8');
    case 'States.Hash': {
      const algorithm = {
        MD5: 'md5',
        'SHA-1': 'sha1',
        'SHA-256': 'sha256',
        'SHA-384': 'sha384',
        'SHA-512': 'sha512',
      }[text(1)];
      if (!algorithm) fail(`unknown algorithm ${text(1)}`);
      const data = typeof args[0] === 'string' ? args[0] : JSON.stringify(args[0]);
      return createHash(algorithm!).update(data).digest('hex');
    }
    case 'States.JsonMerge': {
      const [a, b] = args as [Record<string, unknown>, Record<string, unknown>];
      if (args[2] !== false) fail('only a shallow merge (false) is supported');
      return { ...a, ...b };
    }
    case 'States.MathRandom': {
      const [low, high] = [num(0), num(1)];
      return Math.floor(low + Math.random() * (high - low));
    }
    case 'States.MathAdd':
      return num(0) + num(1);
    case 'States.StringSplit': {
      const separators = text(1).split('');
      return text(0)
        .split(new RegExp(`[${separators.map((c) => c.replace(/[\]\\^-]/g, '\\$&')).join('')}]`))
        .filter((part) => part !== '');
    }
    case 'States.UUID':
      return randomUUID();
    default:
      return fail('unknown intrinsic function');
  }
}
