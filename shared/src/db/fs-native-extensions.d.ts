// The part of fs-native-extensions (no types of its own) that the embedded database lock uses.
declare module 'fs-native-extensions' {
  /** Takes a lock on the open file `fd` without waiting: false when another holder has it. Exclusive unless `shared`. */
  export function tryLock(fd: number, offset?: number, length?: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number, offset?: number, length?: number): void;
}
