// The JSON paths that name a submitted value (`message`, `items[2]`, `contact["a.b"]`): written by
// @intake/contract, which the console bundles too, so both write every path alike.
export { fieldPath, type FieldPathSegment } from '@intake/contract';
