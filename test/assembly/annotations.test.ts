import { describe, expect, it } from 'vitest';
import {
  enforceAnnotations,
  formatAnnotation,
  summarizeAnnotations,
} from '../../src/assembly/annotations.js';
import type { Annotation } from '../../src/assembly/types.js';

const warning: Annotation = { level: 'warning', stack: 'A', path: '/A/Bucket', message: 'be careful' };
const error: Annotation = { level: 'error', stack: 'A', path: '/A/Queue', message: 'broken' };
const info: Annotation = { level: 'info', stack: 'A', path: '/A', message: 'fyi' };

describe('annotations', () => {
  it('formats like the CDK CLI', () => {
    expect(formatAnnotation(warning)).toBe('[Warning at /A/Bucket] be careful');
  });

  it('lets warnings and info through without --strict', () => {
    expect(() => enforceAnnotations([warning, info], { strict: false })).not.toThrow();
  });

  it('refuses an error annotation, naming it', () => {
    expect(() => enforceAnnotations([warning, error], { strict: false })).toThrow(
      expect.objectContaining({
        code: 'ASSEMBLY_HAS_ERRORS',
        message: expect.stringContaining('/A/Queue] broken'),
      }),
    );
  });

  it('refuses warnings under --strict', () => {
    expect(() => enforceAnnotations([warning, info], { strict: true })).toThrow(
      expect.objectContaining({
        code: 'ASSEMBLY_HAS_WARNINGS',
        message: expect.stringContaining('be careful'),
      }),
    );
  });

  it('summarizes the counts', () => {
    expect(summarizeAnnotations([warning, warning, error, info])).toBe('1 error, 2 warnings, 1 info');
  });
});
