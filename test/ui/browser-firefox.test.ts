import { firefox } from 'playwright-core';
import { describeUiIn } from './browser-suite.js';

// Debian's Firefox ESR speaks WebDriver BiDi; playwright-core drives it through the `moz-firefox`
// channel. playwright-core is pinned to a release whose BiDi commands ESR 153 knows.
const FIREFOX = '/usr/bin/firefox-esr';

describeUiIn({
  name: 'Firefox',
  executable: FIREFOX,
  aptPackage: 'firefox-esr',
  async open() {
    const browser = await firefox.launch({ channel: 'moz-firefox', executablePath: FIREFOX, headless: true });
    const context = await browser.newContext();
    return {
      context,
      async close() {
        await context.close();
        await browser.close();
      },
    };
  },
});
