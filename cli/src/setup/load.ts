// Reading a setup file: YAML (or JSON, which is YAML) checked against the schema, then every
// `${env:NAME}` replaced from the environment. A missing variable is an error naming it.
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { UsageError } from '../errors.js';
import { setupFileSchema, type SetupFile } from './schema.js';

const ENV_REFERENCES = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

function interpolate(value: unknown, path: string, missing: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(ENV_REFERENCES, (_whole, variable: string) => {
      const found = process.env[variable];
      if (found === undefined || found === '') {
        missing.add(`${variable} (at ${path})`);
        return '';
      }
      return found;
    });
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => interpolate(item, `${path}.${index}`, missing));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, interpolate(item, path ? `${path}.${key}` : key, missing)]),
    );
  }
  return value;
}

export async function loadSetupFile(file: string): Promise<SetupFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0) {
    throw new UsageError(`${file} is not valid YAML:\n${document.errors.map((error) => error.message).join('\n')}`);
  }
  const parsed = setupFileSchema.safeParse(document.toJS());
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`);
    throw new UsageError(`${file} does not match the setup file schema:\n${lines.join('\n')}`);
  }
  const missing = new Set<string>();
  const resolved = interpolate(parsed.data, '', missing) as SetupFile;
  if (missing.size > 0) {
    throw new UsageError(`Environment variables not set: ${[...missing].join(', ')}`);
  }
  return resolved;
}
