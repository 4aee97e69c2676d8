// Real Visio drawings kept under fixtures/visio (their sources and licences: its README.md), for
// the tests of the Visio reader: files Visio wrote, where the samples in archives.ts are built
// from the format description.
import { readFileSync } from 'node:fs';

export interface RealVisioDrawing {
  /** The file name, as in the fixtures folder. */
  name: string;
  bytes: Buffer;
  /** True when the drawing carries a VBA macro. */
  macro: boolean;
}

const FIXTURES = new URL('../fixtures/visio/', import.meta.url);

const DRAWINGS: readonly { name: string; macro: boolean }[] = [
  { name: 'Visio5TextFieldsWithUnits.vsd', macro: false },
  { name: 'Visio6TextFieldsWithUnits.vsd', macro: false },
  { name: 'Visio6PlanWithDimensions.vsd', macro: false },
  { name: 'Visio11TextFieldsWithAngle.vsd', macro: false },
  { name: 'blue-box.vsdx', macro: false },
  { name: 'SimpleMacro.vsd', macro: true },
  { name: 'SimpleMacro.vsdm', macro: true },
  { name: 'visio_with_embeded.vsd', macro: true },
];

/** Every real drawing of the fixtures folder, read from disk. */
export function realVisioDrawings(): RealVisioDrawing[] {
  return DRAWINGS.map(({ name, macro }) => ({ name, macro, bytes: readFileSync(new URL(name, FIXTURES)) }));
}
