// Who a form's submissions may be assigned to (checkAssignee's rule as a list): the active owners
// and admins, and the active members with a grant on the form's site. For the console's assignee
// choice; a reader of the site sees these names on assigned submissions anyway.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, FormSchema, MemberSiteGrantSchema } from '@intake/shared/entities';
import { notFound } from '../errors.js';
import type { SubmissionMemberType } from './inbox-state.type.js';

export async function assignableMembers(em: Em, formId: string): Promise<SubmissionMemberType[]> {
  const form = await em.findOne(FormSchema, { id: formId }, { fields: ['site'] });
  if (form === null) {
    throw notFound('Form');
  }
  const granted = await em.find(MemberSiteGrantSchema, { site: form.site.id }, { fields: ['member'] });
  const members = await em.find(
    AdminUserSchema,
    {
      status: 'active',
      $or: [{ role: { $in: ['owner', 'admin'] } }, { id: { $in: granted.map((grant) => grant.member.id) } }],
    },
    { fields: ['name', 'email'] },
  );
  return members
    .map((member) => ({ id: member.id, name: member.name || member.email }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
