import { ID, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import { id, wholeNumber } from '../validation/fields.js';
import { InputField } from '../validation/input-type.js';
import { ApiTokenLevelEnum } from './api-token.type.js';

export const TOKEN_DAYS_DEFAULT = 90;
export const TOKEN_DAYS_MAX = 365;
const DAY_MS = 86_400_000;
const MAX_SITES = 1000;

/** An end in the future and within a year, as a Date. */
const tokenEnd = z
  .string()
  .pipe(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time' }))
  .transform((value) => new Date(value))
  .refine((value) => value.getTime() > Date.now(), 'must be in the future')
  .refine((value) => value.getTime() <= Date.now() + TOKEN_DAYS_MAX * DAY_MS, 'must be within a year');

@InputType('ApiTokenScopeInput', {
  description: `What a new token may do and until when; left out: the member's role-appropriate level (docs/teams.md), every site, ${TOKEN_DAYS_DEFAULT} days. At most one of expiresInDays, expiresAt and noExpiry.`,
})
export class ApiTokenScopeInput {
  @InputField(() => ApiTokenLevelEnum, z.enum(ApiTokenLevelEnum).nullable(), { nullable: true })
  level?: ApiTokenLevelEnum | null;

  @InputField(
    () => [ID],
    z
      .array(id)
      .min(1, 'must name at least one site (leave it out for every site)')
      .max(MAX_SITES)
      .transform((ids) => [...new Set(ids)])
      .nullable(),
    { nullable: true, description: 'The only sites it reaches, among those its member may see.' },
  )
  siteIds?: string[] | null;

  @InputField(() => Int, wholeNumber(1, TOKEN_DAYS_MAX).nullable(), { nullable: true })
  expiresInDays?: number | null;

  @InputField(() => String, tokenEnd.nullable(), { nullable: true, description: 'ISO 8601, within a year.' })
  expiresAt?: Date | null;

  @InputField(() => Boolean, z.boolean().nullable(), { nullable: true, description: 'Never ends: owners only.' })
  noExpiry?: boolean | null;
}
