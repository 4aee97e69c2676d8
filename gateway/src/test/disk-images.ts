// Containers whose signature is not in their first bytes, written by hand at test time: a
// pre-POSIX (v7) tar, which has no `ustar` marker at all, and an ISO 9660 image, whose `CD001`
// marker sits at offset 32,769. Both are what 7-Zip and every extractor open.

const TAR_BLOCK = 512;
const ISO_SECTOR = 2048;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** A v7 tar (no magic, no version): each entry a 512-byte header, then its data padded to 512. */
export function v7Tar(entries: readonly { name: string; data: Buffer | string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data);
    const header = Buffer.alloc(TAR_BLOCK);
    header.write(entry.name, 0, 100, 'latin1');
    header.write(octal(0o644, 8), 100, 'latin1');
    header.write(octal(0, 8), 108, 'latin1');
    header.write(octal(0, 8), 116, 'latin1');
    header.write(octal(data.length, 12), 124, 'latin1');
    header.write(octal(1_700_000_000, 12), 136, 'latin1');
    header.write('        ', 148, 'latin1');
    header[156] = 0x30; // regular file
    const sum = header.reduce((total, byte) => total + byte, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    blocks.push(header, data, Buffer.alloc((TAR_BLOCK - (data.length % TAR_BLOCK)) % TAR_BLOCK));
  }
  blocks.push(Buffer.alloc(TAR_BLOCK * 2));
  return Buffer.concat(blocks);
}

function bothEndian32(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32LE(value, 0);
  bytes.writeUInt32BE(value, 4);
  return bytes;
}

function bothEndian16(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt16LE(value, 0);
  bytes.writeUInt16BE(value, 2);
  return bytes;
}

function directoryRecord(name: Buffer, sector: number, size: number, isDirectory: boolean): Buffer {
  const length = 33 + name.length + (name.length % 2 === 0 ? 1 : 0);
  const record = Buffer.alloc(length);
  record[0] = length;
  bothEndian32(sector).copy(record, 2);
  bothEndian32(size).copy(record, 10);
  Buffer.from([124, 1, 1, 0, 0, 0, 0]).copy(record, 18); // 2024-01-01 00:00:00 UTC
  record[25] = isDirectory ? 0x02 : 0x00;
  bothEndian16(1).copy(record, 28);
  record[32] = name.length;
  name.copy(record, 33);
  return record;
}

/**
 * An ISO 9660 image with files in its root directory (names in upper case, `;1` version suffix as
 * mastering tools write them): system area, primary volume descriptor, terminator, root directory,
 * then one sector-aligned extent per file.
 */
export function iso9660(entries: readonly { name: string; data: Buffer | string }[]): Buffer {
  const rootSector = 18;
  let nextSector = rootSector + 1;
  const files = entries.map((entry) => {
    const data = Buffer.from(entry.data);
    const sector = nextSector;
    nextSector += Math.max(1, Math.ceil(data.length / ISO_SECTOR));
    return { name: Buffer.from(`${entry.name.toUpperCase()};1`, 'latin1'), data, sector };
  });
  const root = Buffer.alloc(ISO_SECTOR);
  let offset = 0;
  for (const record of [
    directoryRecord(Buffer.from([0]), rootSector, ISO_SECTOR, true),
    directoryRecord(Buffer.from([1]), rootSector, ISO_SECTOR, true),
    ...files.map((file) => directoryRecord(file.name, file.sector, file.data.length, false)),
  ]) {
    record.copy(root, offset);
    offset += record.length;
  }
  const primary = Buffer.alloc(ISO_SECTOR);
  primary[0] = 1;
  primary.write('CD001', 1, 'latin1');
  primary[6] = 1;
  primary.write('INTAKE'.padEnd(32, ' '), 40, 'latin1');
  bothEndian32(nextSector).copy(primary, 80);
  bothEndian16(1).copy(primary, 120);
  bothEndian16(1).copy(primary, 124);
  bothEndian16(ISO_SECTOR).copy(primary, 128);
  directoryRecord(Buffer.from([0]), rootSector, ISO_SECTOR, true).copy(primary, 156);
  primary[881] = 1;
  const terminator = Buffer.alloc(ISO_SECTOR);
  terminator[0] = 255;
  terminator.write('CD001', 1, 'latin1');
  terminator[6] = 1;
  const image = Buffer.alloc(nextSector * ISO_SECTOR);
  primary.copy(image, 16 * ISO_SECTOR);
  terminator.copy(image, 17 * ISO_SECTOR);
  root.copy(image, rootSector * ISO_SECTOR);
  for (const file of files) {
    file.data.copy(image, file.sector * ISO_SECTOR);
  }
  return image;
}
