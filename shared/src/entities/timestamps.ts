import { randomUUID } from 'node:crypto';
import { p } from '@mikro-orm/core';

// Columns every entity shares: a random UUID key (never guessable, safe to show) and timestamps.
export const idProperty = () =>
  p
    .uuid()
    .primary()
    .onCreate(() => randomUUID());

export const createdAtProperty = () => p.datetime().onCreate(() => new Date());

export const updatedAtProperty = () =>
  p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date());
