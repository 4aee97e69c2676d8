import { Field, ObjectType } from 'type-graphql';

@ObjectType('TwoFactorEnrolment', {
  description: 'A new TOTP secret, pending until confirmTwoFactor confirms it with a first code.',
})
export class TwoFactorEnrolmentType {
  @Field(() => String, { description: 'Base32, for typing into an app or a password manager.' })
  secret!: string;

  @Field(() => String, { description: 'The `otpauth://totp/…` URI the QR code holds.' })
  otpauthUri!: string;

  @Field(() => String, { description: 'The QR code of `otpauthUri` as an SVG document.' })
  qrCodeSvg!: string;
}

@ObjectType('RecoveryCodes')
export class RecoveryCodesType {
  @Field(() => [String], {
    description:
      'Ten single-use codes, in this answer only (only their hashes are kept). Each signs in once instead of a TOTP code.',
  })
  codes!: string[];
}
