// Typed GraphQL operations: every operation in a `.graphql` file under src/ (beside the component that
// runs it) is checked against the admin API's printed schema (docs/schema.graphql, written by
// `npm run build` at the root) and becomes a typed document with its result and variable types in
// src/gql/graphql.ts (generated, not committed).
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../docs/schema.graphql',
  documents: ['src/**/*.graphql'],
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
