import { crc32 } from 'node:zlib';

/**
 * The deployment package CloudFormation makes from an inline `Code.ZipFile`: a zip holding
 * the source as `index.py` for Python runtimes and `index.js` otherwise.
 */
export function inlineZip(source: string, runtime: string | undefined): Uint8Array {
  const name = runtime?.startsWith('python') ? 'index.py' : 'index.js';
  return storedZip(name, Buffer.from(source, 'utf8'));
}

/** A one-entry zip, stored without compression (valid for Lambda, and deterministic). */
function storedZip(fileName: string, data: Buffer): Uint8Array {
  const name = Buffer.from(fileName, 'utf8');
  const checksum = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(checksum, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(checksum, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  // Unix permissions 0644 in the high half of the external attributes, so Lambda can read it.
  central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return new Uint8Array(Buffer.concat([local, name, data, central, name, end]));
}
