// Visio saves a VBA project in many drawings nobody wrote a macro in: its one document module,
// `ThisDocument`, holding only the `Attribute` lines every module starts with. Such a project runs
// nothing, so a Visio drawing carrying it is not refused as a macro (docs/security.md). Reading a
// module's source takes the project's `dir` stream and MS-OVBA's compression (2.4.1), which no
// maintained JavaScript library reads, hence this file. Anything unexpected counts as code.
import CFB from 'cfb';
import type { CFB$Container } from 'cfb';

/** More than any module's source; past it, the project is taken as holding code. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const DOCUMENT_MODULE = 0x22;

/** MS-OVBA 2.4.1.3: a compressed container, decompressed; null when it is not one or too large. */
export function decompressVba(container: Buffer, maxBytes: number = MAX_SOURCE_BYTES): Buffer | null {
  if (container[0] !== 0x01) {
    return null;
  }
  const output: number[] = [];
  let at = 1;
  while (at + 2 <= container.length) {
    const header = container.readUInt16LE(at);
    const chunkEnd = Math.min(at + (header & 0x0fff) + 3, container.length);
    const chunkStart = output.length;
    at += 2;
    if ((header & 0x7000) !== 0x3000) {
      return null;
    }
    if ((header & 0x8000) === 0) {
      for (; at < chunkEnd && output.length - chunkStart < 4096; at += 1) {
        output.push(container[at] ?? 0);
      }
    }
    while (at < chunkEnd) {
      const flags = container[at] ?? 0;
      at += 1;
      for (let bit = 0; bit < 8 && at < chunkEnd; bit += 1) {
        if ((flags & (1 << bit)) === 0) {
          output.push(container[at] ?? 0);
          at += 1;
          continue;
        }
        if (at + 2 > chunkEnd) {
          return null;
        }
        const token = container.readUInt16LE(at);
        at += 2;
        // The offset takes as many high bits as the chunk's output so far needs, at least four.
        let offsetBits = 4;
        while (1 << offsetBits < output.length - chunkStart) {
          offsetBits += 1;
        }
        const length = (token & (0xffff >> offsetBits)) + 3;
        const offset = (token >> (16 - offsetBits)) + 1;
        if (offset > output.length - chunkStart) {
          return null;
        }
        for (let index = 0; index < length; index += 1) {
          output.push(output[output.length - offset] ?? 0);
        }
      }
    }
    if (output.length > maxBytes) {
      return null;
    }
  }
  return Buffer.from(output);
}

interface Module {
  streamName?: string;
  offset?: number;
  type?: number;
}

/** The modules the `dir` stream lists (MS-OVBA 2.3.4.2): stream name, source offset, type. */
function modulesOf(dir: Buffer): Module[] | null {
  const modules: Module[] = [];
  let module: Module | undefined;
  for (let at = 0; at + 6 <= dir.length;) {
    const id = dir.readUInt16LE(at);
    const size = dir.readUInt32LE(at + 2);
    const data = dir.subarray(at + 6, at + 6 + size);
    // PROJECTVERSION says 4 bytes and holds 6.
    at += 6 + (id === 0x0009 ? 6 : size);
    if (id === 0x0019) {
      module = {};
      modules.push(module);
    } else if (module !== undefined && id === 0x0032) {
      module.streamName = data.toString('utf16le');
    } else if (module !== undefined && id === 0x0031 && data.length === 4) {
      module.offset = data.readUInt32LE(0);
    } else if (module !== undefined && (id === 0x0021 || id === 0x0022)) {
      module.type = id;
    } else if (id === 0x0010) {
      return modules;
    }
  }
  return null;
}

const content = (container: CFB$Container, path: string): Buffer | null => {
  const entry = CFB.find(container, path);
  return entry?.content === undefined ? null : Buffer.from(entry.content);
};

/** Only blank lines and `Attribute` lines: the source of a module nobody wrote code in. */
function holdsOnlyAttributes(source: Buffer): boolean {
  return source
    .toString('latin1')
    .split(/\r\n|\r|\n/u)
    .every((line) => line.trim() === '' || /^Attribute /iu.test(line.trim()));
}

/**
 * True when the compound file's VBA project is the one Visio saves on its own: a single document
 * module whose source holds only attribute lines. False for any other project, and for one that
 * cannot be read.
 */
export function isEmptyDocumentProject(container: CFB$Container): boolean {
  const dirStream = content(container, '/VBA/dir');
  const dir = dirStream === null ? null : decompressVba(dirStream);
  const modules = dir === null ? null : modulesOf(dir);
  if (modules?.length !== 1) {
    return false;
  }
  const [module] = modules;
  if (module?.type !== DOCUMENT_MODULE || module.streamName === undefined || module.offset === undefined) {
    return false;
  }
  const stream = content(container, `/VBA/${module.streamName}`);
  const source = stream === null ? null : decompressVba(stream.subarray(module.offset));
  return source !== null && holdsOnlyAttributes(source);
}
