import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('DailyCount', { description: 'A count for one calendar day in UTC.' })
export class DailyCountType {
  @Field(() => String, { description: 'The UTC day, YYYY-MM-DD.' })
  day!: string;

  @Field(() => Int)
  count!: number;
}

/**
 * The form a figure is about, and its site: the fields each per-form figure starts with. Not a
 * GraphQL type of its own (nothing returns it): its fields are part of each type that extends it.
 */
@ObjectType('FormOfSite')
class FormOfSiteType {
  @Field(() => ID)
  formId!: string;

  @Field(() => String, { description: "The form's name, HTML-escaped as stored." })
  formName!: string;

  @Field(() => ID)
  siteId!: string;

  @Field(() => String, { description: "The site's name, HTML-escaped as stored." })
  siteName!: string;
}

@ObjectType('FormSubmissionSeries', { description: "One form's inbox submissions per day." })
export class FormSubmissionSeriesType extends FormOfSiteType {
  @Field(() => Int, { description: 'Inbox submissions over the whole period.' })
  total!: number;

  @Field(() => [DailyCountType], { description: 'One entry per day of the period, oldest first; 0 on quiet days.' })
  days!: DailyCountType[];
}

@ObjectType('FormSpamTotal', { description: "One form's spam over the period." })
export class FormSpamTotalType extends FormOfSiteType {
  @Field(() => Int, { description: 'Submissions stored as spam over the whole period.' })
  total!: number;
}

@ObjectType('SubmissionStats', { description: 'Submissions per UTC day over the last days.' })
export class SubmissionStatsType {
  @Field(() => [String], { description: 'The UTC days covered, oldest first; the last is today.' })
  days!: string[];

  @Field(() => [FormSubmissionSeriesType], {
    description:
      'Forms (of sites and forms not deleted) with at least one inbox submission in the period, busiest first. Spam not counted.',
  })
  forms!: FormSubmissionSeriesType[];

  @Field(() => [DailyCountType], { description: 'Submissions stored as spam, all forms together, per day.' })
  spam!: DailyCountType[];

  @Field(() => [FormSpamTotalType], {
    description: 'Forms (of sites and forms not deleted) with spam in the period, most first.',
  })
  spamForms!: FormSpamTotalType[];
}

@ObjectType('RefusalSeries', { description: "One refusal code's count per day." })
export class RefusalSeriesType {
  @Field(() => String, { description: 'The code of the problem answer (docs/intake-api.md), e.g. token_invalid.' })
  code!: string;

  @Field(() => String, { description: "The code's title in the error catalogue, e.g. 'Site token invalid'." })
  title!: string;

  @Field(() => Int, { description: 'Refusals with this code over the whole period.' })
  total!: number;

  @Field(() => [DailyCountType], { description: 'One entry per day of the period, oldest first; 0 on quiet days.' })
  days!: DailyCountType[];
}

@ObjectType('RefusalStats', { description: "The gateway's refusals per UTC day and code over the last days." })
export class RefusalStatsType {
  @Field(() => [String], { description: 'The UTC days covered, oldest first; the last is today.' })
  days!: string[];

  @Field(() => [RefusalSeriesType], {
    description: 'Codes refused at least once in the period, most frequent first.',
  })
  codes!: RefusalSeriesType[];
}
