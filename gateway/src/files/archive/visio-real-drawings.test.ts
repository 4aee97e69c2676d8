import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import CFB from 'cfb';
import {
  makeSampleDir,
  ovbaCompressLiterals,
  realVisioDrawings,
  removeSampleDir,
  visioDrawing,
  writeSample,
  zipOf,
} from '@intake/test-files';
import { inspectZip } from './inspect-zip.js';
import { inspectOle2 } from './ole2.js';
import { decompressVba } from './vba-project.js';
import { visioStorages } from './visio.js';

// Drawings Visio itself wrote (test-files/fixtures/visio, from libvisio's and Apache POI's test
// data): every clean one must pass and every one with a macro be refused as archive_macro, bare
// and inside a zip. Visio 2003 and older drawings are compound files (inspectOle2); Visio 2013
// ones are OOXML packages, zips themselves (inspectZip).

let dir: string;
let counter = 0;

beforeAll(async () => {
  dir = await makeSampleDir();
});

afterAll(async () => {
  await removeSampleDir(dir);
});

async function inspectZipBytes(bytes: Buffer): Promise<void> {
  counter += 1;
  await inspectZip(await writeSample(dir, `drawing-${counter}.zip`, bytes));
}

/** The drawing inspected as the file it is: a compound file, or an OOXML package. */
async function inspectBare(name: string, bytes: Buffer): Promise<void> {
  if (name.endsWith('.vsd')) {
    inspectOle2(bytes);
    return;
  }
  await inspectZipBytes(bytes);
}

const verdict = (inspection: Promise<void>): Promise<string> =>
  inspection.then(
    () => 'accepted',
    (error: unknown) => (error as { code?: string }).code ?? String(error),
  );

const drawings = realVisioDrawings();

describe('real Visio drawings', () => {
  it.each(drawings.map((drawing) => [drawing.name, drawing] as const))(
    '%s, bare and inside a zip',
    async (_, drawing) => {
      const expected = drawing.macro ? 'archive_macro' : 'accepted';
      expect(await verdict(inspectBare(drawing.name, drawing.bytes))).toBe(expected);
      const zipped = await zipOf({ [`drawings/${drawing.name}`]: drawing.bytes });
      expect(await verdict(inspectZipBytes(zipped))).toBe(expected);
    },
  );
});

describe('the VBA project Visio saves on its own', () => {
  // Visio6PlanWithDimensions.vsd carries one: a ThisDocument module holding only its attribute lines.
  const plan = drawings.find((drawing) => drawing.name === 'Visio6PlanWithDimensions.vsd');
  const project = (): CFB.CFB$Container => {
    const outer = CFB.read(plan?.bytes ?? Buffer.alloc(0), { type: 'buffer' });
    const document = Buffer.from(CFB.find(outer, 'VisioDocument')?.content ?? []);
    const [storage] = visioStorages(document);
    return CFB.read(storage ?? Buffer.alloc(0), { type: 'buffer' });
  };
  /** The real project with `code` written after ThisDocument's attribute lines. */
  const withCode = (code: string): Buffer => {
    const container = project();
    const module = Buffer.from(CFB.find(container, '/VBA/ThisDocument')?.content ?? []);
    const sourceAt = module.indexOf(Buffer.from('\0Attribut', 'latin1')) - 3;
    const source = decompressVba(module.subarray(sourceAt))?.toString('latin1') ?? '';
    const edited = Buffer.concat([module.subarray(0, sourceAt), ovbaCompressLiterals(source + code)]);
    CFB.utils.cfb_add(container, '/VBA/ThisDocument', edited);
    return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
  };

  it('passes it, and refuses the same project once ThisDocument runs code when the drawing opens', async () => {
    const untouched = Buffer.from(CFB.write(project(), { type: 'buffer' }) as Uint8Array);
    expect(await verdict(inspectZipBytes(await zipOf({ 'plan.vsd': visioDrawing(untouched) })))).toBe('accepted');
    const opened = 'Private Sub Document_DocumentOpened(ByVal doc As IVDocument)\r\n  Shell "calc.exe"\r\nEnd Sub\r\n';
    const macro = await zipOf({ 'plan.vsd': visioDrawing(withCode(opened)) });
    expect(await verdict(inspectZipBytes(macro))).toBe('archive_macro');
  });
});
