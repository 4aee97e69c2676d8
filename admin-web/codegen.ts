// Typed GraphQL operations: every `graphql(...)` call under src/ is checked against the admin API's
// printed schema (docs/schema.graphql, written by `npm run build` at the root) and given its result
// and variable types in src/gql/ (generated, not committed).
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../docs/schema.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**/*'],
  ignoreNoDocuments: true,
  generates: {
    './src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        scalars: { ID: 'string', JSONObject: 'Record<string, unknown>' },
      },
    },
  },
  silent: true,
};

export default config;
