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

  it('the public invitation query and acceptInvitation need no credentials, alone', () => {
    expect(operation('query { invitation(token: "t") { state } }')).toBe(true);
    expect(operation('query { __typename invitation(token: "t") { state } }')).toBe(true);
    expect(operation('query { invitation(token: "t") { state } members { id } }')).toBe(false);
    expect(operation('query { ... on Query { invitation(token: "t") { state } __schema { types { name } } } }')).toBe(
      false,
    );
    expect(operation('mutation { acceptInvitation(input: { token: "t", name: "n", password: "p" }) { token } }')).toBe(
      true,
    );
    expect(
      operation(
        'mutation { acceptInvitation(input: { token: "t", name: "n", password: "p" }) { token } inviteMember(input: { email: "e", role: member }) { emailSent } }',
      ),
    ).toBe(false);
  });

  it("the sign-in page's signInOptions query is public, alone", () => {
    expect(operation('query { signInOptions { passwords } }')).toBe(true);
    expect(operation('query { __typename signInOptions { passwords } }')).toBe(true);
    expect(operation('query { ...F } fragment F on Query { signInOptions { passwords } }')).toBe(true);
    expect(operation('query { signInOptions { passwords } ssoPolicy { passwordSignIn } }')).toBe(false);
    expect(operation('query { signInOptions { passwords } sites { id } }')).toBe(false);
    expect(operation('mutation { signInOptions }')).toBe(false);
    expect(operation('query { login }')).toBe(false);
  });
});
