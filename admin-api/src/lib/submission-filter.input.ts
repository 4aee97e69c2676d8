import { InputType } from 'type-graphql';
import { z } from 'zod';
import {
  creationBound,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_QUERY_MIN_LENGTH,
  searchQuery,
} from './submission-filter-fields.js';
import { InputField } from '../validation/input-type.js';

@InputType('SubmissionFilterInput', {
  description: "Narrows a form's submissions; every part optional, all parts must hold.",
})
export class SubmissionFilterInput {
  @InputField(() => String, searchQuery, {
    nullable: true,
    description:
      'Text found inside any field value, nested objects and arrays included (not in field names), ignoring case ' +
      `and accents; ${SEARCH_QUERY_MIN_LENGTH}..${SEARCH_QUERY_MAX_LENGTH} characters, empty or blank means no ` +
      'text filter.',
  })
  query?: string | null;

  @InputField(() => String, creationBound, {
    nullable: true,
    description: 'ISO 8601 date-time with offset (or a date, meaning 00:00 UTC); created at or after it (inclusive).',
  })
  createdAfter?: Date | null;

  @InputField(() => String, creationBound, {
    nullable: true,
    description:
      'ISO 8601 date-time with offset (or a date, meaning 00:00 UTC); created strictly before it (exclusive).',
  })
  createdBefore?: Date | null;

  @InputField(() => Boolean, z.boolean().nullable(), {
    nullable: true,
    description: 'true: only submissions with files; false: only those without; null: both.',
  })
  hasFiles?: boolean | null;
}
