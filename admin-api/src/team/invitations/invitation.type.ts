import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { MemberRoleEnum } from '../../access/member-role.type.js';
import { MemberType } from '../members/member.type.js';

export enum InvitationStateEnum {
  VALID = 'VALID',
  USED = 'USED',
  EXPIRED = 'EXPIRED',
  REVOKED = 'REVOKED',
}

registerEnumType(InvitationStateEnum, {
  name: 'InvitationState',
  description:
    'REVOKED also for a link that was replaced by a resend, or that was never issued: only the current link of an invited member is known (docs/teams.md).',
});

@ObjectType('InvitationPayload')
export class InvitationPayloadType {
  @Field(() => MemberType, { description: 'The invited member (status `invited`).' })
  member!: MemberType;

  @Field(() => String, {
    nullable: true,
    description:
      'The link to hand over, when no e-mail is sent (SMTP_URL unset); null when it went out by e-mail. Shown in this answer only.',
  })
  link!: string | null;

  @Field(() => Boolean, { description: 'The invitation e-mail was queued for sending (SMTP_URL is set).' })
  emailSent!: boolean;
}

@ObjectType('InvitationView', { description: 'What an invitation link says, for the page that opens it.' })
export class InvitationViewType {
  @Field(() => String, { nullable: true, description: 'Null for a link nobody knows (state REVOKED).' })
  email!: string | null;

  @Field(() => MemberRoleEnum, { nullable: true, description: 'Null for a link nobody knows (state REVOKED).' })
  role!: MemberRoleEnum | null;

  @Field(() => InvitationStateEnum)
  state!: InvitationStateEnum;
}
