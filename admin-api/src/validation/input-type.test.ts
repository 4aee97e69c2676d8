// Every input of the admin API is declared once: each field of every GraphQL input type carries
// its check (@InputField), so no field reaches a command unchecked, and the checked value is what
// the resolver gets.
import 'reflect-metadata';
import { testConfig } from '@intake/shared/test';
import { isInputObjectType } from 'graphql';
import { getMetadataStorage, InputType } from 'type-graphql';
import { z } from 'zod';
import { buildAdminSchema } from '../schema/build-schema.js';
import { InputField, inputSchema } from './input-type.js';

describe('input declarations', () => {
  it('give every field of every input type of the schema a check, and nothing more', async () => {
    const schema = await buildAdminSchema();
    const config = testConfig();
    const inputTypes = Object.values(schema.getTypeMap()).filter(isInputObjectType);
    expect(inputTypes.length).toBeGreaterThanOrEqual(8);
    for (const inputType of inputTypes) {
      const declared = getMetadataStorage().inputTypes.find((metadata) => metadata.name === inputType.name);
      expect([inputType.name, declared]).toEqual([inputType.name, expect.anything()]);
      const checked = Object.keys(inputSchema(declared!.target as new () => object, config).shape).sort();
      expect([inputType.name, checked]).toEqual([inputType.name, Object.keys(inputType.getFields()).sort()]);
    }
  });

  it('makes a nullable field optional and drops keys that are not declared', () => {
    @InputType('InputDeclarationProbe')
    class Probe {
      @InputField(() => String, z.string().trim())
      name!: string;

      @InputField(() => String, z.string().nullable(), { nullable: true })
      note?: string | null;
    }
    const schema = inputSchema(Probe, testConfig());
    expect(schema.parse({ name: ' a ', extra: 'x' })).toEqual({ name: 'a' });
    expect(schema.parse({ name: 'a', note: null })).toEqual({ name: 'a', note: null });
    expect(schema.safeParse({ note: 'n' }).success).toBe(false);
  });
});
