// One setting that a planned change sets: what plan prints under the object, and gives scripts.
export interface FieldChange {
  field: string;
  from?: unknown;
  to?: unknown;
  /** The value is a secret: printed as "(secret changes)", never shown. */
  secret?: true;
  /** How plan prints it when `field: from → to` would not read well (a declared field's change). */
  text?: string;
}
