import { codesAnsweredAs } from '@intake/shared/errors';
import { IntakeProblem, PROBLEM_CODES, problemOf } from './problem.js';

describe('IntakeProblem', () => {
  it("knows exactly the problem codes of the service's catalogue (docs/intake-api.md)", () => {
    expect([...PROBLEM_CODES].sort()).toEqual(codesAnsweredAs('problem').sort());
  });

  it('reads a problem document, with the failing fields of fields_invalid', async () => {
    const response = new Response(
      JSON.stringify({
        type: 'urn:intake:problem:fields_invalid',
        title: "Fields do not match the form's declared fields",
        status: 400,
        detail: 'One field does not match.',
        code: 'fields_invalid',
        errors: [{ path: 'email', reason: 'is required' }, { nonsense: true }],
      }),
      { status: 400, headers: { 'Content-Type': 'application/problem+json' } },
    );
    const problem = await problemOf(response, 1);
    expect(problem).toBeInstanceOf(IntakeProblem);
    expect(problem).toMatchObject({
      status: 400,
      code: 'fields_invalid',
      detail: 'One field does not match.',
      errors: [{ path: 'email', reason: 'is required' }],
      attempts: 1,
      known: true,
    });
  });

  it('still gives a problem for a body that is not one (a proxy error page)', async () => {
    const problem = await problemOf(new Response('<html>Bad gateway</html>', { status: 502 }), 3, 7);
    expect(problem).toMatchObject({ status: 502, code: 'internal_error', errors: [], attempts: 3, retryAfter: 7 });
  });
});
