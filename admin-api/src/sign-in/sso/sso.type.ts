import { Field, ObjectType } from 'type-graphql';

@ObjectType('SingleSignOn')
export class SingleSignOnType {
  @Field(() => String, { description: 'The provider as the sign-in button names it (OIDC_PROVIDER_NAME).' })
  name!: string;

  @Field(() => String, { description: 'Where the sign-in button leads: GET, on the admin origin.' })
  startPath!: string;
}

@ObjectType('SignInOptions')
export class SignInOptionsType {
  @Field(() => SingleSignOnType, { nullable: true, description: 'Null when single sign-on is not configured.' })
  sso!: SingleSignOnType | null;

  @Field(() => Boolean, {
    description:
      'False when the policy forbids passwords to people who can use single sign-on (owners may still use theirs).',
  })
  passwords!: boolean;

  @Field(() => Boolean, {
    description:
      'Whether "Forgot password?" can e-mail a reset link (SMTP_URL is set); otherwise an owner or admin sends one.',
  })
  passwordResetByEmail!: boolean;
}

@ObjectType('SsoPolicy')
export class SsoPolicyType {
  @Field(() => Boolean, { description: 'Single sign-on is configured on this server.' })
  ssoConfigured!: boolean;

  @Field(() => Boolean, {
    description: 'Whether people who can use single sign-on may also sign in with a password. Owners always may.',
  })
  passwordSignIn!: boolean;

  @Field(() => String, { description: 'ISO 8601.' })
  updatedAt!: string;
}

@ObjectType('SsoSecondFactor', {
  description:
    'The second step after a single sign-on of a member with a second factor: what `login` gives in SECOND_FACTOR_REQUIRED after a password.',
})
export class SsoSecondFactorType {
  @Field(() => String, {
    description: 'For `verifySecondFactor` (with a code) or `startPasskeySignIn` (as `secondFactorChallenge`).',
  })
  challenge!: string;

  @Field(() => String, { description: 'ISO 8601: 5 minutes after the single sign-on.' })
  challengeExpiresAt!: string;

  @Field(() => [String], {
    description: 'What the member may answer with: `totp` (a code or a recovery code), `passkey`.',
  })
  methods!: string[];
}
