import { Field, ObjectType } from 'type-graphql';

@ObjectType('PasswordResetLink')
export class PasswordResetLinkType {
  @Field(() => String, {
    nullable: true,
    description: 'The link to hand over; null when it went out by e-mail. Shown once: only its hash is kept.',
  })
  link!: string | null;

  @Field(() => Boolean)
  emailSent!: boolean;

  @Field(() => String, { description: 'ISO 8601: the link works once, until then.' })
  expiresAt!: string;
}
