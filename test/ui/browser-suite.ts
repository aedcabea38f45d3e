import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { Stack } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

/** A browser installed from Debian, driven by playwright-core (no browser download works here). */
export interface InstalledBrowser {
  name: string;
  executable: string;
  /** The apt package that provides it, named in the skip reason. */
  aptPackage: string;
  /** A fresh browser context; `close` ends it and the browser behind it. */
  open(): Promise<{ context: BrowserContext; close(): Promise<void> }>;
}
const STACK = 'UiChain';
/** Each CreateQueue is held this long, so the queue chain is the deploy's critical path. */
const QUEUE_LATENCY_MS = 700;

/** Queue A ← Queue B (A is its dead-letter queue) ← Parameter C (holds B's URL); Topic D stands alone. */
function chainApp(): string {
  return synthesizeApp((app) => {
    const stack = new Stack(app, STACK);
    const a = new Queue(stack, 'QueueA');
    const b = new Queue(stack, 'QueueB', { deadLetterQueue: { queue: a, maxReceiveCount: 3 } });
    new StringParameter(stack, 'ParamC', { stringValue: b.queueUrl });
    new Topic(stack, 'TopicD');
  });
}

/** The chain app changed: ParamC removed, QueueE added. */
function changedChainApp(): string {
  return synthesizeApp((app) => {
    const stack = new Stack(app, STACK);
    const a = new Queue(stack, 'QueueA');
    new Queue(stack, 'QueueB', { deadLetterQueue: { queue: a, maxReceiveCount: 3 } });
    new Topic(stack, 'TopicD');
    new Queue(stack, 'QueueE');
  });
}

function topicApp(): string {
  return synthesizeApp((app) => new Topic(new Stack(app, 'UiFaulted'), 'Faulted'));
}

interface StateResource {
  type: string;
  physicalId: string;
  dependencies: string[];
}

/** The `cdkd ui` checks, run in one browser against a sandbox of its own. */
export function describeUiIn(browser: InstalledBrowser): void {
  const sandbox = useSandbox();
  const env = () => sandboxEnv(sandbox.current.url);
  /** Screenshots, kept after the run as test artifacts (gitignored). */
  const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'ui', browser.name.toLowerCase());
  describe.skipIf(!existsSync(browser.executable))(
    `cdkd ui in ${browser.name} (skipped when ${browser.executable} is absent: apt-get install ${browser.aptPackage})`,
    () => {
      let ui: ChildProcess;
      let url: string;
      let opened: { context: BrowserContext; close(): Promise<void> } | undefined;
      let page: Page;
      let resources: Record<string, StateResource>;
      /** When the deploy ran: each resource's last change falls inside. */
      let deployWindow: [number, number];

      beforeAll(async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
        const latency = await fetch(`${sandbox.current.url}/_sandbox/latency`, {
          method: 'PUT',
          body: JSON.stringify({ operations: { 'sqs:CreateQueue': QUEUE_LATENCY_MS } }),
        });
        expect(latency.status).toBe(200);
        // One throttled PutParameter: ParamC's bar shows time spent retrying.
        const throttle = await fetch(`${sandbox.current.url}/_sandbox/faults`, {
          method: 'POST',
          body: JSON.stringify({
            service: 'ssm',
            operation: 'PutParameter',
            errorCode: 'ThrottlingException',
            httpStatus: 400,
          }),
        });
        expect(throttle.status).toBe(201);
        const deployStart = Date.now();
        const deploy = await runCli(['deploy', '-a', chainApp()], { env: env() });
        deployWindow = [deployStart, Date.now()];
        await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
        expect(deploy.stderr).not.toContain('failed');
        expect(deploy.code).toBe(0);
        const state = await runCli(['state', 'show', STACK, '--json'], { env: env() });
        resources = (JSON.parse(state.stdout) as { resources: Record<string, StateResource> }).resources;
        // QueueA changed out of band, then a drift check: the stacks list shows what it found.
        const sqs = new SQSClient({ region: 'us-east-1', maxAttempts: 1 });
        await sqs.send(
          new SetQueueAttributesCommand({
            QueueUrl: resources[logicalIdOf('QueueA')]!.physicalId,
            Attributes: { VisibilityTimeout: '99' },
          }),
        );
        sqs.destroy();
        expect((await runCli(['drift', STACK], { env: env() })).code).toBe(0);

        ui = spawn(
          process.execPath,
          [join(REPO_ROOT, 'dist', 'cli', 'main.js'), 'ui', '-a', changedChainApp()],
          {
            env: { ...process.env, ...env() },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        url = await new Promise<string>((resolve, reject) => {
          let out = '';
          ui.stdout!.on('data', (chunk) => {
            out += chunk;
            const found = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/.exec(out)?.[1];
            if (found) resolve(found);
          });
          ui.on('close', (code) => reject(new Error(`cdkd ui exited with ${code}: ${out}`)));
        });
        opened = await browser.open();
        page = await opened.context.newPage();
      }, 180_000);

      afterAll(async () => {
        await opened?.close();
        ui?.kill('SIGTERM');
      });

      it('lists the deployed stack with its status and resource count', async () => {
        await page.goto(url);
        const row = page.locator(`#stacks tr[data-stack="${STACK}"]`);
        await row.waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'stacks.png'), fullPage: true });
        const cells = await row.locator('td').allTextContents();
        expect(cells[1]).toBe('us-east-1');
        expect(cells[2]).toBe('CREATE_COMPLETE');
        expect(Number(cells[4])).toBe(Object.keys(resources).length);
        expect(cells[5]).toBe('-');
        const drift = row.locator('td.drift');
        expect(await drift.getAttribute('data-drifted')).toBe(logicalIdOf('QueueA'));
        expect(cells[7]).toMatch(new RegExp(`^1 drifted: ${logicalIdOf('QueueA')}, checked \\d{4}-`));
        expect(Date.parse((await drift.getAttribute('data-checked-at'))!)).toBeGreaterThanOrEqual(
          deployWindow[1],
        );
      });

      it("shows each resource's last change: its create in the deploy", async () => {
        await page.goto(`${url}#/stack/us-east-1/${STACK}`);
        await page.locator('#resources').waitFor();
        for (const logicalId of Object.keys(resources)) {
          const cell = page.locator(`#resources tr[data-id="${logicalId}"] td.last-change`);
          expect(await cell.textContent()).toMatch(/^CREATE_COMPLETE /);
          const at = Date.parse((await cell.getAttribute('data-at'))!);
          expect(at).toBeGreaterThanOrEqual(deployWindow[0]);
          expect(at).toBeLessThanOrEqual(deployWindow[1]);
        }
      });

      it("draws the stack's graph: a node per resource, an edge per dependency", async () => {
        await page.goto(`${url}#/stack/us-east-1/${STACK}`);
        await page.locator('#graph').waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'graph.png'), fullPage: true });
        const nodes = await page
          .locator('#graph g.node')
          .evaluateAll((all) => all.map((node) => node.getAttribute('data-id')));
        expect(nodes.sort()).toEqual(Object.keys(resources).sort());
        const edges = await page
          .locator('#graph path.edge')
          .evaluateAll((all) =>
            all.map((edge) => `${edge.getAttribute('data-from')}->${edge.getAttribute('data-to')}`),
          );
        const expected = Object.entries(resources).flatMap(([id, record]) =>
          record.dependencies
            .filter((dependency) => dependency in resources)
            .map((dependency) => `${id}->${dependency}`),
        );
        expect(expected).toContain(`${logicalIdOf('QueueB')}->${logicalIdOf('QueueA')}`);
        expect(edges.sort()).toEqual(expected.sort());
      });

      it("highlights the deploy's critical path: the queue chain slowed by the sandbox's latency", async () => {
        await page.goto(`${url}#/stack/us-east-1/${STACK}`);
        const run = page.locator('#history .run').first();
        await run.waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'timeline.png'), fullPage: true });
        expect(await criticalBars(page)).toEqual(['QueueA', 'QueueB', 'ParamC'].map(logicalIdOf));
        expect(await run.locator('g.bar').count()).toBe(Object.keys(resources).length);
        const retried = await run
          .locator('g.bar:has(rect.retry)')
          .evaluateAll((all) => all.map((bar) => bar.getAttribute('data-id')));
        // Under load another resource's call may be retried too; ParamC's throttled call always is.
        expect(retried).toContain(logicalIdOf('ParamC'));
      });

      it('overlays the pending diff of the app given with --app on the graph', async () => {
        await page.goto(`${url}#/stack/us-east-1/${STACK}`);
        await page.locator('#show-diff').click();
        await page.locator('#diff-status', { hasText: 'change(s)' }).waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'graph-diff.png'), fullPage: true });
        const planned = await page
          .locator('#graph g.node[data-plan]')
          .evaluateAll((all) =>
            all.map((node) => `${node.getAttribute('data-id')}:${node.getAttribute('data-plan')}`),
          );
        expect(planned.map((entry) => entry.replace(/[0-9A-F]{8}:/, ':')).sort()).toEqual([
          'ParamC:delete',
          'QueueE:create',
        ]);
        expect(await page.locator('#graph g.node').count()).toBe(Object.keys(resources).length + 1);
      });

      it('writes cdkd events --html as one file that renders the same timeline from file://', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'cdkd-ui-html-'));
        const file = join(dir, 'events.html');
        const written = await runCli(['events', STACK, '--html', file], { env: env() });
        expect(written.code).toBe(0);
        const html = readFileSync(file, 'utf8');
        expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
        await page.goto(pathToFileURL(file).href);
        await page.locator('#history .run').first().waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'events-html.png'), fullPage: true });
        expect(await criticalBars(page)).toEqual(['QueueA', 'QueueB', 'ParamC'].map(logicalIdOf));
        rmSync(dir, { recursive: true, force: true });
      });

      it('sets a fault from the sandbox page that the next deploy meets', async () => {
        await page.goto(`${url}#/sandbox`);
        await submitForm(page, '#add-fault', {
          service: 'sns',
          operation: 'CreateTopic',
          errorCode: 'InvalidParameter',
          httpStatus: '400',
          count: '1',
        });
        await page.locator('#faults li', { hasText: 'sns:CreateTopic' }).waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'sandbox.png'), fullPage: true });
        const listed = (await (await fetch(`${sandbox.current.url}/_sandbox/faults`)).json()) as {
          faults: Array<{ operation: string }>;
        };
        expect(listed.faults.map((fault) => fault.operation)).toEqual(['CreateTopic']);

        const deploy = await runCli(['deploy', '-a', topicApp()], { env: env() });
        expect(deploy.code).not.toBe(0);
        expect(deploy.stderr).toContain('InvalidParameter');
      }, 120_000);

      it("shows the sandbox's recent calls with latency and faults, a queue's messages and a bucket's objects", async () => {
        const admin = (path: string, init?: RequestInit) =>
          fetch(`${sandbox.current.url}/_sandbox/${path}`, init);
        const sqs = new SQSClient({ region: 'us-east-1', maxAttempts: 1 });
        const s3 = new S3Client({ region: 'us-east-1', maxAttempts: 1, forcePathStyle: true });
        const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'ui-peek' }));
        const held = {
          method: 'POST',
          body: JSON.stringify({ service: 'sqs', operation: 'SendMessage', latencyMs: 300 }),
        };
        expect((await admin('faults', held)).status).toBe(201);
        await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'peek-me' }));
        await s3.send(new CreateBucketCommand({ Bucket: 'ui-objects' }));
        await s3.send(new PutObjectCommand({ Bucket: 'ui-objects', Key: 'hello.txt', Body: 'hello' }));
        const failing = { service: 's3', operation: 'GetObject', errorCode: 'SlowDown', httpStatus: 503 };
        expect((await admin('faults', { method: 'POST', body: JSON.stringify(failing) })).status).toBe(201);
        await expect(
          s3.send(new GetObjectCommand({ Bucket: 'ui-objects', Key: 'hello.txt' })),
        ).rejects.toThrow();
        await admin('faults', { method: 'DELETE' });
        sqs.destroy();
        s3.destroy();

        await page.goto(`${url}#/sandbox`);
        // The previous test left the page on this view: load it again for the calls made since.
        await page.reload();
        await page.locator('#recent-calls').waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'sandbox-data.png'), fullPage: true });
        const send = page.locator('#recent-calls tr[data-operation="sqs:SendMessage"]').first();
        expect(Number(await send.getAttribute('data-latency'))).toBeGreaterThanOrEqual(300);
        expect(await send.getAttribute('data-fault')).toBe('+300 ms');
        const get = page.locator('#recent-calls tr[data-operation="s3:GetObject"]').first();
        expect(await get.getAttribute('data-fault')).toBe('SlowDown');
        expect(await get.locator('td').nth(3).textContent()).toBe('503');
        expect(await page.locator('#queue-messages li[data-queue="ui-peek"] code').allTextContents()).toEqual(
          ['peek-me'],
        );
        expect(
          await page.locator('#bucket-objects li[data-bucket="ui-objects"]').getAttribute('data-key'),
        ).toBe('hello.txt');
        // Listing the queue on the page received nothing.
        const view = (await (await admin('views/sqs/messages?queue=ui-peek')).json()) as {
          messages: Array<{ receiveCount: number }>;
        };
        expect(view.messages.map((message) => message.receiveCount)).toEqual([0]);
      });

      it('sets the latency model from the sandbox page', async () => {
        await page.goto(`${url}#/sandbox`);
        await submitForm(page, '#set-latency', { operation: 'ssm:GetParameter', ms: '5' });
        await page.locator('#latency li[data-operation="ssm:GetParameter"]').waitFor();
        const model = (await (await fetch(`${sandbox.current.url}/_sandbox/latency`)).json()) as {
          operations: Record<string, number>;
        };
        expect(model.operations).toEqual({ 'sqs:CreateQueue': QUEUE_LATENCY_MS, 'ssm:GetParameter': 5 });
      });

      /** The logical id CDK gave the construct with this id (a hash follows it). */
      function logicalIdOf(construct: string): string {
        const id = Object.keys(resources).find((logicalId) => logicalId.startsWith(construct));
        if (!id) throw new Error(`no resource for ${construct} in ${Object.keys(resources).join(', ')}`);
        return id;
      }
    },
  );
}

async function submitForm(page: Page, selector: string, fields: Record<string, string>): Promise<void> {
  const form = page.locator(selector);
  await form.waitFor();
  for (const [name, value] of Object.entries(fields)) await form.locator(`input[name=${name}]`).fill(value);
  await form.locator('button[type=submit]').click();
}

/** The most recent run's highlighted bars, in start order. */
async function criticalBars(page: Page): Promise<string[]> {
  return page
    .locator('#history .run')
    .first()
    .locator('g.bar.critical')
    .evaluateAll((all) =>
      all
        .map((bar) => ({
          id: bar.getAttribute('data-id')!,
          x: Number(bar.querySelector('rect.work')!.getAttribute('x')),
        }))
        .sort((a, b) => a.x - b.x)
        .map((bar) => bar.id),
    );
}
