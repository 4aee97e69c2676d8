import { codesAnsweredAs, ERROR_CATALOGUE } from '@intake/contract';
import { IntakeProblem, PROBLEM_CODES, problemOf, type ProblemCode } from './problem.js';

// The tests' type check (npm run lint) fails here when the client's ProblemCode lacks a problem code
// of the one catalogue.
const everyProblemCode: readonly ProblemCode[] = codesAnsweredAs('problem');

describe('IntakeProblem', () => {
  it("knows every problem code of the service's catalogue (@intake/contract), each with its status", async () => {
    expect([...PROBLEM_CODES].sort()).toEqual([...everyProblemCode].sort());
    for (const code of everyProblemCode) {
      const { status, title } = ERROR_CATALOGUE[code];
      const response = new Response(
        JSON.stringify({ type: `urn:intake:problem:${code}`, title, status, detail: title, code }),
        { status, headers: { 'Content-Type': 'application/problem+json' } },
      );
      const problem = await problemOf(response, 1);
      expect({ code: problem.code, status: problem.status, known: problem.known }).toEqual({
        code,
        status,
        known: true,
      });
    }
  });

  it('reads why a form is closed, and when it opens', async () => {
    const response = new Response(
      JSON.stringify({
        type: 'urn:intake:problem:form_closed',
        title: 'Form closed',
        status: 403,
        detail: 'This form opens at 2026-12-01 09:00 UTC.',
        code: 'form_closed',
        reason: 'not_yet_open',
        opensAt: '2026-12-01T09:00:00.000Z',
      }),
      { status: 403, headers: { 'Content-Type': 'application/problem+json' } },
    );
    const problem = await problemOf(response, 1);
    expect(problem).toMatchObject({
      code: 'form_closed',
      status: 403,
      closed: { reason: 'not_yet_open', opensAt: '2026-12-01T09:00:00.000Z' },
    });
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
    expect(problem.detail).toContain('(or a proxy in front of the gateway failed)');
  });
});
