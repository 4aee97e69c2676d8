// Files that hold secrets or personal data (webhook secrets, exports), written whole or not at all
// and readable by the user alone. Writing into an existing file keeps its mode (0644, say), and a
// fixed FILE.partial may be a leftover or someone's link; so the content goes to a new file made
// with O_EXCL and mode 0600 beside the target, then renamed over it. Not write-file-atomic: it opens
// its temporary file without O_EXCL and takes the content whole, where an export streams.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const PRIVATE = 0o600;
/** Windows has no such modes: there the folder's permissions decide. */
const MODES = process.platform !== 'win32';

function modeOf(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/**
 * Writes `content` (text, or a stream that is piped through `through` first) to `target`, replacing
 * any file there. The new file has mode 0600 from its first byte, and the mode is checked again once
 * it is in place; on any failure nothing is left but what was there before.
 */
export async function writePrivateFile(
  target: string,
  content: string | Readable,
  ...through: NodeJS.ReadWriteStream[]
): Promise<void> {
  const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`;
  // O_CREAT | O_EXCL: a new file, never an existing one or a link planted under that name.
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, PRIVATE);
  try {
    if (MODES) {
      await handle.chmod(PRIVATE); // The umask may only have removed bits; this sets exactly 0600.
      const { mode } = await handle.stat();
      if ((mode & 0o777) !== PRIVATE) {
        throw new Error(`${target}: this file system keeps files at mode ${modeOf(mode)}, not 0600; nothing written`);
      }
    }
    if (typeof content === 'string') {
      await handle.writeFile(content);
      await handle.sync();
      await handle.close();
    } else {
      // The write stream flushes and closes the handle after the last byte (or on an error).
      await pipeline([content, ...through, handle.createWriteStream({ flush: true })]);
    }
    await rename(temporary, target);
  } catch (error) {
    await handle.close().catch(() => undefined); // Already closed when the write went through.
    await rm(temporary, { force: true });
    throw error;
  }
  if (MODES) {
    const { mode } = await stat(target);
    if ((mode & 0o777) !== PRIVATE) {
      throw new Error(`${target} has mode ${modeOf(mode)} after writing, not 0600: check who else can write there`);
    }
  }
}
