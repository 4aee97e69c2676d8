// A required password field bound to a field of an uncontrolled Mantine form. The key comes from
// the form, so the input remounts when the form resets or sets the value (e.g. after a failed sign-in).
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

interface FormPasswordInputProps<Values> extends Omit<PasswordInputProps, 'form'> {
  form: UseFormReturnType<Values>;
  field: keyof Values & string;
}

export function FormPasswordInput<Values>({ form, field, ...props }: FormPasswordInputProps<Values>) {
  return <PasswordInput required key={form.key(field)} {...props} {...form.getInputProps(field)} />;
}
