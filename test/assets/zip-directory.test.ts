import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zipDirectory } from '../../src/assets/zip-directory.js';
import { centralDirectory } from './zip-central-directory.js';

interface FixtureFile {
  path: string;
  content: string | Buffer;
  mode: number;
}

const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));

const FIXTURE: FixtureFile[] = [
  { path: 'index.js', content: 'exports.handler = async () => "hi";\n', mode: 0o644 },
  { path: '.env', content: 'A=1\n', mode: 0o600 },
  { path: 'bootstrap', content: '#!/bin/sh\necho hi\n', mode: 0o755 },
  { path: 'lib/util.js', content: 'module.exports = 1;\n', mode: 0o644 },
  { path: 'lib/data/blob.bin', content: binary, mode: 0o644 },
  { path: 'lib-x.js', content: '// sorts between lib and lib/ by code unit\n', mode: 0o644 },
  { path: 'Z-upper.txt', content: 'upper case sorts first\n', mode: 0o644 },
];

const EXPECTED_ORDER = [
  '.env',
  'Z-upper.txt',
  'bootstrap',
  'index.js',
  'lib-x.js',
  'lib/data/blob.bin',
  'lib/util.js',
];

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cdkd-zip-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeTree(dir: string, files: readonly FixtureFile[], mtime: Date): Promise<string> {
  for (const file of files) {
    const path = join(dir, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
    await chmod(path, file.mode);
    await utimes(path, mtime, mtime);
  }
  return dir;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('zipDirectory', () => {
  it('gives the same bytes for the same content, whatever the creation order, mtimes and umask', async () => {
    const first = await writeTree(join(root, 'a'), FIXTURE, new Date('2024-05-01T10:00:00Z'));
    const reordered = FIXTURE.slice()
      .reverse()
      .map((file) => ({ ...file, mode: file.mode & 0o100 ? 0o700 : 0o664 }));
    const second = await writeTree(join(root, 'b'), reordered, new Date('2011-11-11T11:11:11Z'));
    await mkdir(join(second, 'empty-dir'));

    const once = await zipDirectory(first);
    const twice = await zipDirectory(first);
    const elsewhere = await zipDirectory(second);

    expect(twice.equals(once)).toBe(true);
    expect(sha256(elsewhere)).toBe(sha256(once));
  });

  it('unpacks to the directory content, sorted by path, with fixed date and normalised modes', async () => {
    await writeTree(root, FIXTURE, new Date());
    await mkdir(join(root, 'empty-dir'));

    const zip = await zipDirectory(root);

    const unpacked = unzipSync(zip);
    expect(Object.keys(unpacked)).toEqual(EXPECTED_ORDER);
    for (const file of FIXTURE) {
      expect(Buffer.from(unpacked[file.path]!).equals(Buffer.from(file.content)), file.path).toBe(true);
    }
    const entries = centralDirectory(zip);
    expect(entries.map((entry) => entry.name)).toEqual(EXPECTED_ORDER);
    for (const entry of entries) {
      expect(entry.madeBy).toBe(3);
      expect(entry.dosDate).toBe((0 << 9) | (1 << 5) | 1); // 1980-01-01
      expect(entry.dosTime).toBe(0);
      expect(entry.mode, entry.name).toBe(entry.name === 'bootstrap' ? 0o100755 : 0o100644);
    }
  });

  it('encodes the same timestamp in every time zone', async () => {
    await writeTree(root, FIXTURE, new Date());
    const original = process.env.TZ;
    try {
      process.env.TZ = 'America/Los_Angeles';
      const west = await zipDirectory(root);
      process.env.TZ = 'Asia/Tokyo';
      const east = await zipDirectory(root);
      expect(east.equals(west)).toBe(true);
      expect(centralDirectory(west)[0]).toMatchObject({ dosDate: 0x21, dosTime: 0 });
    } finally {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    }
  });

  it('follows symlinks to files and directories, storing the target content under the link name', async () => {
    const outside = await writeTree(join(root, 'outside'), FIXTURE.slice(0, 1), new Date());
    const asset = join(root, 'asset');
    await mkdir(asset);
    await writeFile(join(asset, 'real.txt'), 'real\n');
    await symlink(join(outside, 'index.js'), join(asset, 'linked.js'));
    await symlink(outside, join(asset, 'linked-dir'));

    const unpacked = unzipSync(await zipDirectory(asset));

    expect(Object.keys(unpacked)).toEqual(['linked-dir/index.js', 'linked.js', 'real.txt']);
    expect(strFromU8(unpacked['linked.js']!)).toBe(FIXTURE[0]!.content);
  });

  it('gives an empty archive for an empty directory', async () => {
    const zip = await zipDirectory(root);
    expect(Object.keys(unzipSync(zip))).toEqual([]);
    expect(centralDirectory(zip)).toEqual([]);
  });

  it('refuses a dangling symlink', async () => {
    await symlink(join(root, 'nowhere'), join(root, 'dangling'));
    await expect(zipDirectory(root)).rejects.toMatchObject({
      code: 'ASSET_SYMLINK_BROKEN',
      message: expect.stringContaining(join(root, 'dangling')),
    });
  });

  it('refuses a symlinked directory that loops back to an ancestor', async () => {
    await mkdir(join(root, 'sub'));
    await symlink(root, join(root, 'sub', 'back'));
    await expect(zipDirectory(root)).rejects.toMatchObject({
      code: 'ASSET_SYMLINK_LOOP',
      message: expect.stringContaining(join(root, 'sub', 'back')),
    });
  });

  it('refuses an entry that is neither file nor directory', async () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await expect(zipDirectory(root)).rejects.toMatchObject({ code: 'ASSET_UNSUPPORTED_ENTRY' });
  });
});
