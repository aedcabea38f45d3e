import { CreateResourceCommand, type CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import {
  CreateHostedZoneCommand,
  DeleteHostedZoneCommand,
  GetHostedZoneCommand,
  ListHostedZonesByNameCommand,
  ListHostedZonesCommand,
  Route53Client,
} from '@aws-sdk/client-route-53';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, settle } from './helpers.js';

let sandbox: Sandbox;
let route53: Route53Client;
let cc: CloudControlClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  route53 = new Route53Client({
    endpoint: sandbox.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIASANDBOXTEST', secretAccessKey: 'sandbox-secret' },
    maxAttempts: 1,
  });
  cc = cloudControlClient(sandbox, { region: 'eu-west-1' });
});
afterAll(async () => {
  route53.destroy();
  cc.destroy();
  await sandbox.stop();
});

describe('Route 53 hosted zones in the sandbox', () => {
  it('creates public and private zones, gets them with their name servers or VPCs, and deletes them', async () => {
    const made = await route53.send(
      new CreateHostedZoneCommand({ Name: 'shop.example.org', CallerReference: 'a' }),
    );
    expect(made.HostedZone).toMatchObject({ Name: 'shop.example.org.', Config: { PrivateZone: false } });
    expect(made.HostedZone!.Id).toMatch(/^\/hostedzone\/Z[A-Z0-9]+$/);
    expect(made.DelegationSet!.NameServers!.length).toBeGreaterThan(0);
    const internal = await route53.send(
      new CreateHostedZoneCommand({
        Name: 'internal.example.org',
        CallerReference: 'b',
        HostedZoneConfig: { Comment: 'inside', PrivateZone: true },
        VPC: { VPCId: 'vpc-00000000000000002', VPCRegion: 'eu-west-1' },
      }),
    );
    const got = await route53.send(new GetHostedZoneCommand({ Id: internal.HostedZone!.Id }));
    expect(got.HostedZone).toMatchObject({ Config: { Comment: 'inside', PrivateZone: true } });
    expect(got.VPCs).toEqual([{ VPCId: 'vpc-00000000000000002', VPCRegion: 'eu-west-1' }]);

    await route53.send(new DeleteHostedZoneCommand({ Id: made.HostedZone!.Id }));
    const gone = await failure(route53.send(new GetHostedZoneCommand({ Id: made.HostedZone!.Id })));
    expect(gone).toMatchObject({ name: 'NoSuchHostedZone', status: 404 });
    await route53.send(new DeleteHostedZoneCommand({ Id: internal.HostedZone!.Id }));
  });

  it('lists zones by name in reversed-label order from the name asked for, including zones a stack made', async () => {
    for (const [name, reference] of [
      ['b.example.net', 'c1'],
      ['a.example.net', 'c2'],
      ['example.com', 'c3'],
    ]) {
      await route53.send(new CreateHostedZoneCommand({ Name: name, CallerReference: reference }));
    }
    // A zone Cloud Control made in another region is in the same global list.
    const accepted = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::Route53::HostedZone',
        DesiredState: JSON.stringify({ Name: 'z.example.net' }),
      }),
    );
    expect((await settle(cc, accepted.ProgressEvent!)).event.OperationStatus).toBe('SUCCESS');
    const all = await route53.send(new ListHostedZonesCommand({}));
    expect(all.HostedZones!.map((zone) => zone.Name)).toEqual([
      'example.com.',
      'a.example.net.',
      'b.example.net.',
      'z.example.net.',
    ]);
    const fromNet = await route53.send(new ListHostedZonesByNameCommand({ DNSName: 'a.example.net' }));
    expect(fromNet.HostedZones!.map((zone) => zone.Name)).toEqual([
      'a.example.net.',
      'b.example.net.',
      'z.example.net.',
    ]);
    expect(fromNet.DNSName).toBe('a.example.net');
  });

  it('refuses a malformed domain name', async () => {
    const bad = await failure(
      route53.send(new CreateHostedZoneCommand({ Name: 'bad name!', CallerReference: 'x' })),
    );
    expect(bad).toMatchObject({ name: 'InvalidDomainName', status: 400 });
  });
});
