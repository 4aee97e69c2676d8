// The admin schema as SDL: the printed reference in docs/schema.graphql and the input of the
// console's typed operations (GraphQL Code Generator reads that file).
import 'reflect-metadata';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { buildAdminSchema } from './build-schema.js';

export async function printAdminSchema(): Promise<string> {
  // Sorted, so the file changes only when the schema does (not when resolvers are reordered).
  return `${printSchema(lexicographicSortSchema(await buildAdminSchema()))}\n`;
}
