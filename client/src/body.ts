// The request body of a submission: JSON without files, multipart/form-data with them. Made once
// and sent again unchanged on every retry (a FormData and a string can both be sent many times).

/** A file to send with the submission, in the multipart field `field`. */
export interface IntakeFile {
  field: string;
  /** The file name the gateway records (and checks the extension of). */
  name: string;
  data: Blob | ArrayBuffer | ArrayBufferView;
  /** The content type sent with the part; the gateway decides by the content whatever this says. */
  type?: string;
}

export type Fields = Record<string, unknown>;

function blobOf(file: IntakeFile): Blob {
  if (file.data instanceof Blob) {
    return file.data;
  }
  const bytes =
    file.data instanceof ArrayBuffer
      ? new Uint8Array(file.data)
      : new Uint8Array(file.data.buffer, file.data.byteOffset, file.data.byteLength);
  // Copied, so a caller that reuses its buffer after the call cannot change what a retry sends.
  return new Blob([bytes.slice()], { type: file.type ?? 'application/octet-stream' });
}

/**
 * Fields as multipart entries, as an HTML form names them: a list becomes repeated entries, an object
 * bracket names (`contact[name]`), which the gateway reads back into the same shape.
 */
function appendField(form: FormData, name: string, value: unknown): void {
  if (value === undefined) {
    return;
  }
  if (Array.isArray(value)) {
    const scalars = value.every((item) => item === null || typeof item !== 'object');
    value.forEach((item, index) => appendField(form, scalars ? name : `${name}[${index}]`, item));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      appendField(form, `${name}[${key}]`, item);
    }
    return;
  }
  form.append(name, value === null ? '' : String(value));
}

export function submissionBody(
  fields: Fields,
  files: readonly IntakeFile[],
): { body: string | FormData; type?: string } {
  if (files.length === 0) {
    return { body: JSON.stringify(fields), type: 'application/json' };
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    appendField(form, name, value);
  }
  for (const file of files) {
    form.append(file.field, blobOf(file), file.name);
  }
  // fetch writes the multipart Content-Type with its boundary.
  return { body: form };
}
