// Typed GraphQL operations, as the console has them (admin-web/codegen.ts): every operation in a
// `.graphql` file under src/ is checked against the admin API's printed schema (docs/schema.graphql)
// and becomes a typed document with its result and variable types in src/gql/graphql.ts (generated
// by `npm run build`, not committed).
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
        // Documents as their text (a String subclass carrying the types), not as parsed syntax trees:
        // the command line sends the text as it is, so it needs no `graphql` at run time to print
        // them (graphql would be its largest dependency, for one call to `print`).
        documentMode: 'string',
        // Node's ESM resolution (tsconfig NodeNext) needs the extension in relative imports.
        importExtension: '.js',
      },
    },
  },
  silent: true,
};

export default config;
