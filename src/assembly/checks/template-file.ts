import { isAbsolute, resolve } from 'node:path';
import { CdkdError } from '../../errors.js';
import { isInside } from '../paths.js';

/**
 * A stack's `templateFile` as the manifest names it, resolved against the manifest's
 * directory; refused when it leaves the app's output directory (`../`, or an absolute path
 * elsewhere), as spec 002 refuses for asset paths: CDK always writes templates inside it.
 */
export function stackTemplatePath(
  outputDir: string,
  manifestDir: string,
  raw: string,
  stack: string,
): string {
  const templateFile = resolve(manifestDir, raw);
  if (!isInside(outputDir, templateFile)) {
    throw new CdkdError(
      'TEMPLATE_PATH_ESCAPES',
      `Stack ${stack}'s templateFile "${raw}" ${isAbsolute(raw) ? 'is' : 'resolves to'} ${templateFile}, outside the output directory ${outputDir}.`,
      { hint: 'Re-synthesize the app; CDK writes every template inside the output directory.' },
    );
  }
  return templateFile;
}
