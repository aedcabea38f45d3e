import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describeUiIn } from './browser-suite.js';

const CHROMIUM = '/usr/bin/chromium';

describeUiIn({
  name: 'Chromium',
  executable: CHROMIUM,
  aptPackage: 'chromium',
  async open() {
    const profile = mkdtempSync(join(tmpdir(), 'cdkd-ui-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  },
});
