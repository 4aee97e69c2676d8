declare module 'append-field' {
  export default function appendField(store: Record<string, unknown>, key: string, value: unknown): void;
}
