// The query limits of the admin schema (depth, cost, aliases, root fields), without a server.
import 'reflect-metadata';
import { parse, validate, specifiedRules } from 'graphql';
import { buildAdminSchema } from './build-schema.js';
import { aliasLimitRule, costLimitRule, depthLimitRule, rootFieldLimitRule } from './limits.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('query limits', () => {
  it('depth and cost rules count through fragments without blowing up', async () => {
    const schema = await buildAdminSchema();
    const check = (source: string) =>
      validate(schema, parse(source), [...specifiedRules, depthLimitRule(15), costLimitRule(1000)]).map(
        (error) => error.message,
      );
    // Each fragment spreads the next twice: 2^40 paths, yet both rules finish at once (memoised).
    const fragments = Array.from(
      { length: 40 },
      (_, index) => `fragment F${index} on Query { a${index}: sites { id } ...F${index + 1} ...F${index + 1} }`,
    ).join('\n');
    const wide = `query { ...F0 }\n${fragments.replaceAll('...F40 ...F40', '')}`;
    const started = Date.now();
    expect(check(wide)).toEqual(['Query cost is over the limit of 1000']);
    expect(validate(schema, parse(wide), [depthLimitRule(15)])).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(check(`{ submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } }`)).toEqual([]);
    expect(
      check(
        `{ a: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } b: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } c: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } d: submissions(formId: "${ID}", first: 100) { edges { node { files { id } } } } }`,
      ),
    ).toEqual(['Query cost is over the limit of 1000']);
  });

  it('charges every root field, even one returning a scalar', async () => {
    const schema = await buildAdminSchema();
    const mutations = (count: number) =>
      `mutation { ${Array.from({ length: count }, (_, index) => `d${index}: deleteForm(id: "${ID}")`).join(' ')} }`;
    expect(validate(schema, parse(mutations(1000)), [costLimitRule(1000)])).toEqual([]);
    expect(validate(schema, parse(mutations(1001)), [costLimitRule(1000)]).map((error) => error.message)).toEqual([
      'Query cost is over the limit of 1000',
    ]);
  });

  it('counts aliases and root fields through fragments, memoised', async () => {
    const schema = await buildAdminSchema();
    const check = (source: string) =>
      validate(schema, parse(source), [aliasLimitRule(50), rootFieldLimitRule(25)]).map((error) => error.message);
    const fragments = Array.from(
      { length: 40 },
      (_, index) => `fragment F${index} on Query { a${index}: sites { id } ...F${index + 1} ...F${index + 1} }`,
    ).join('\n');
    const wide = `query { ...F0 }\n${fragments.replaceAll('...F40 ...F40', '')}`;
    const started = Date.now();
    expect(check(wide)).toEqual(['Query has more than 50 aliases', 'Query has more than 25 root fields']);
    expect(Date.now() - started).toBeLessThan(2000);
    const roots = (count: number) => `{ ${Array.from({ length: count }, () => '__typename').join(' ')} }`;
    expect(check(roots(25))).toEqual([]);
    expect(check('{ ... on Query { sites { id } } ...R } fragment R on Query { __typename }')).toEqual([]);
    // `__typename` aliases count like any other (graphql-armor lets them through by default).
    const typenames = `{ sites { ${Array.from({ length: 51 }, (_, index) => `t${index}: __typename`).join(' ')} } }`;
    expect(check(typenames)).toEqual(['Query has more than 50 aliases']);
  });

  it('counts fields as depth levels, not the fragments that group them', async () => {
    const schema = await buildAdminSchema();
    const check = (source: string) =>
      validate(schema, parse(source), [depthLimitRule(2)]).map((error) => error.message);
    expect(check('{ ...F } fragment F on Query { ... on Query { sites { id } } }')).toEqual([]);
    expect(check('{ ...F } fragment F on Query { sites { forms { id } } }')).toEqual([
      'Query is nested deeper than 2 levels',
    ]);
    expect(check('{ __schema { types { name } } }')).toEqual(['Query is nested deeper than 2 levels']);
  });
});
