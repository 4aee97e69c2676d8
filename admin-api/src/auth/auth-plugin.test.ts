// Which operations need no credentials, without a database or a server.
import { parse } from 'graphql';
import { isPublicOperation } from './auth-plugin.js';

describe('public operations', () => {
  const operation = (source: string) => {
    const document = parse(source);
    const definition = document.definitions.find((entry) => entry.kind === 'OperationDefinition');
    return isPublicOperation(definition as never, document);
  };

  it('only a login mutation is public', () => {
    expect(operation('mutation { login(email: "a", password: "b") { token } }')).toBe(true);
    expect(operation('mutation { __typename login(email: "a", password: "b") { token } }')).toBe(true);
    expect(operation('mutation { ...F } fragment F on Mutation { login(email: "a", password: "b") { token } }')).toBe(
      true,
    );
    expect(operation('mutation { login(email: "a", password: "b") { token } deleteSite(id: "x") }')).toBe(false);
    expect(operation('mutation { ... on Mutation { deleteSite(id: "x") } }')).toBe(false);
    expect(operation('query { __typename }')).toBe(false);
    expect(operation('query login { sites { id } }')).toBe(false);
  });
});
