import { describe, expect, it } from 'vitest';
import { targetInput, type InputSettings } from '../../../src/sandbox/services/events/target-input.js';
import { readPath, writePath } from '../../../src/sandbox/patterns/json-path.js';

const event = {
  id: 'e-1',
  time: '2030-01-01T02:00:00Z',
  source: 'com.shop',
  detail: {
    order: {
      id: 'o-17',
      lines: [
        { sku: 'a', qty: 2 },
        { sku: 'b', qty: 5 },
      ],
    },
    note: 'say "hi"',
  },
};
const rule = { arn: 'arn:aws:events:us-east-1:111111111111:rule/orders', name: 'orders' };

describe('what a target receives', () => {
  it.each<[string, InputSettings, unknown]>([
    ['the whole event by default', {}, event],
    ['a constant Input', { Input: '{"fixed":true}' }, { fixed: true }],
    ['what InputPath reads', { InputPath: '$.detail.order.id' }, 'o-17'],
    [
      'a JSON template, values as JSON outside strings and as text inside',
      {
        InputTransformer: {
          InputPathsMap: { id: '$.detail.order.id', lines: '$.detail.order.lines', note: '$.detail.note' },
          InputTemplate: '{"order": <id>, "label": "order <id>: <note>", "lines": <lines>}',
        },
      },
      { order: 'o-17', label: 'order o-17: say "hi"', lines: event.detail.order.lines },
    ],
    [
      "EventBridge's own placeholders",
      {
        InputTransformer: {
          InputTemplate:
            '{"rule": "<aws.events.rule-name>", "arn": <aws.events.rule-arn>, "at": "<aws.events.event.ingestion-time>", "whole": <aws.events.event>}',
        },
      },
      { rule: 'orders', arn: rule.arn, at: event.time, whole: event },
    ],
    [
      'a text template (a JSON string)',
      {
        InputTransformer: {
          InputPathsMap: { id: '$.detail.order.id' },
          InputTemplate: '"Order <id> placed"',
        },
      },
      'Order o-17 placed',
    ],
    [
      'a placeholder with no path stays as written',
      { InputTransformer: { InputTemplate: '"<unknown> stays"' } },
      '<unknown> stays',
    ],
  ])('%s', (_name, settings, expected) => {
    expect(JSON.parse(targetInput(settings, event, rule))).toEqual(expected);
  });
});

describe('JSONPath', () => {
  it.each<[string, unknown]>([
    ['$', event],
    ['$.detail.order.id', 'o-17'],
    ["$['detail']['order']['id']", 'o-17'],
    ['$.detail.order.lines[1].sku', 'b'],
    ['$.detail.order.lines[-1].qty', 5],
    ['$.detail.order.lines[*].sku', ['a', 'b']],
    ['$.detail.order.lines[0:1]', [{ sku: 'a', qty: 2 }]],
    ['$..sku', ['a', 'b']],
    ['$.detail.order.lines[?(@.qty > 3)].sku', ['b']],
    ["$.detail.order.lines[?(@.sku == 'a')].qty", [2]],
    ['$.missing.path', undefined],
  ])('%s', (path, expected) => {
    expect(readPath(event, path)).toEqual(expected);
  });

  it('writes at a definite path, making what is missing, without changing the input', () => {
    const input = { a: 1 };
    expect(writePath(input, '$.result.value', 7)).toEqual({ a: 1, result: { value: 7 } });
    expect(input).toEqual({ a: 1 });
    expect(writePath(input, '$', 'all')).toBe('all');
  });

  it('refuses a path that is not JSONPath', () => {
    expect(() => readPath(event, 'detail.id')).toThrow("does not start with '$'");
    expect(() => readPath(event, '$.a[')).toThrow('is not valid JSONPath');
  });
});
