// The rules every archive inspector (ZIP/OOXML, 7z, RAR) applies to each entry: its path, its name
// and its first bytes. Pure functions; the `check*` ones throw the contract's AppError, the `is*`
// ones answer. Error details never repeat an entry name: names are submitted values.
import { AppError } from '@intake/shared/errors';

export { ArchiveBudget, DEFAULT_ARCHIVE_LIMITS, MAX_NESTED_ARCHIVE_BYTES } from './budget.js';

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

function unsafePath(): AppError {
  return new AppError('archive_path_traversal', 'An archive entry has an unsafe path.');
}

/** A segment that resolves to the parent: `..`, and `.. ` / `...` which Windows trims to `..`. */
function isParentSegment(segment: string): boolean {
  return /^[.\s]*$/u.test(segment) && segment.includes('..');
}

function checkPathText(name: string): void {
  if (name.length === 0 || name.includes('\0') || name.includes('\\')) {
    throw unsafePath();
  }
  // A colon is a drive letter (`C:x`) or, anywhere else, an NTFS stream: `run.bat::$DATA` and
  // `x.vbs:` are written to Windows as `run.bat` and `x.vbs`, past the extension checks.
  if (name.startsWith('/') || name.includes(':')) {
    throw unsafePath();
  }
  if (name.split('/').some(isParentSegment)) {
    throw unsafePath();
  }
}

/** Double-byte code pages whose trail bytes include 0x5C, the byte of `\` (CP932/Shift-JIS, GBK). */
const DOUBLE_BYTE_CODE_PAGES = ['shift_jis', 'gbk'] as const;

/**
 * True when every 0x5C in a raw name is the trail byte of a double-byte character: the name decodes
 * strictly in Shift-JIS or GBK without a backslash (表 is 0x95 0x5C, 十 0x8F 0x5C in Shift-JIS).
 */
export function isDoubleByteTrailBackslash(raw: Uint8Array): boolean {
  return DOUBLE_BYTE_CODE_PAGES.some((encoding) => {
    try {
      return !new TextDecoder(encoding, { fatal: true }).decode(raw).includes('\\');
    } catch {
      return false;
    }
  });
}

export interface EntryPathOptions {
  /**
   * The raw name is in a legacy code page (a ZIP name without the UTF-8 flag): a 0x5C that is a
   * Shift-JIS or GBK trail byte is part of a character there, not a backslash.
   */
  legacyCodePage?: boolean;
}

/**
 * Throws `archive_path_traversal` unless the entry path is relative and stays inside the archive:
 * no leading `/`, no drive letter or other colon, no `..` segment, no backslash, no NUL. Give the
 * RAW name bytes when the format has them (ZIP): `/`, `\`, `.`, `:` and NUL are ASCII, so the byte
 * checks hold for CP437 and UTF-8 alike, whatever a decoder would make of the rest. The NFKC form is
 * checked too, because some extractors map look-alikes (fullwidth `．．／`, `＼`) onto the ASCII
 * characters. A legacy-code-page name whose 0x5C bytes are all double-byte trail bytes is accepted
 * when it stays safe even read with each of them as a separator, as a CP437 extractor would.
 */
export function checkEntryPath(raw: Buffer | string, options: EntryPathOptions = {}): void {
  if (typeof raw === 'string') {
    checkPathText(raw);
    checkPathText(raw.normalize('NFKC'));
    return;
  }
  const trailBackslash = options.legacyCodePage === true && raw.includes(BACKSLASH) && isDoubleByteTrailBackslash(raw);
  if (raw.length === 0 || raw.includes(0) || (raw.includes(BACKSLASH) && !trailBackslash) || raw[0] === SLASH) {
    throw unsafePath();
  }
  const asSeparators = (text: string): string => (trailBackslash ? text.replaceAll('\\', '/') : text);
  // latin1 maps byte for byte, so the ASCII structure of the raw name is preserved exactly.
  checkPathText(asSeparators(raw.toString('latin1')));
  const utf8 = asSeparators(raw.toString('utf8'));
  checkPathText(utf8);
  checkPathText(utf8.normalize('NFKC'));
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/**
 * Extensions that run when opened: programs and scripts, Windows shell formats that launch
 * something (search and library connectors, settings shortcuts, App Installer, OneNote, compiled
 * help), pages a browser runs script in (HTML, MHT, SVG) and server or interpreter scripts. `.bin`
 * is deliberately absent: OOXML itself holds `vbaProject.bin`, `oleObject1.bin` and
 * `printerSettings1.bin`; their content is judged by magic.
 */
// prettier-ignore
const EXECUTABLE_EXTENSIONS = new Set([
  'exe', 'dll', 'com', 'scr', 'cpl', 'pif', 'sys', 'drv', 'ocx', 'efi',
  'bat', 'cmd', 'ps1', 'psm1', 'psd1', 'ps1xml', 'ps2', 'ps2xml', 'psc1', 'psc2', 'pssc', 'psrc', 'cdxml',
  'msh', 'msh1', 'msh2', 'mshxml', 'msh1xml', 'msh2xml',
  'vb', 'vbs', 'vbe', 'js', 'jse', 'mjs', 'cjs',
  'wsf', 'wsh', 'wsc', 'hta', 'htm', 'html', 'xht', 'xhtml', 'shtml', 'mht', 'mhtml', 'htt', 'svg', 'svgz',
  'sct', 'msc', 'scf', 'lnk', 'url', 'website', 'reg', 'inf', 'gadget', 'chm', 'hlp', 'one', 'onepkg',
  'settingcontent-ms', 'appinstaller', 'library-ms', 'search-ms', 'searchconnector-ms', 'diagcab', 'msrcincident',
  'iqy', 'slk', 'jnlp', 'shs', 'shb', 'ins', 'isp', 'mof', 'rdp', 'ppkg', 'vsto', 'vsix',
  'jar', 'class', 'msi', 'msp', 'mst', 'appx', 'appxbundle', 'msix', 'msixbundle', 'application', 'appref-ms',
  'xll', 'xbap', 'apk', 'xapk', 'ipa', 'app', 'dmg', 'pkg', 'command', 'sh', 'bash', 'zsh', 'csh', 'ksh',
  'run', 'deb', 'rpm', 'elf', 'so', 'dylib',
  'php', 'php3', 'php4', 'php5', 'php7', 'phtml', 'phar', 'asp', 'aspx', 'ashx', 'asmx', 'jsp', 'jspx',
  'cgi', 'py', 'pyc', 'pyo', 'pyw', 'pyz', 'pl', 'pm', 'rb',
]);

/**
 * Page formats that are OOXML parts, not pages to open: Office 2016 and later store inserted icons
 * as SVG beside a PNG fallback (`word/media/image2.svg`), and document generators import HTML or
 * MHT into Word through altChunk parts (`word/afchunk.mht`), which Word converts, scripts dropped.
 */
const OOXML_PAGE_PARTS = [/^(?:word|xl|ppt)\/media\/[^/]+\.svg$/iu, /^word\/[^/]+\.(?:html?|xhtml|mht|mhtml)$/iu];

/** Office formats whose only purpose over their plain twin is to carry macros. */
const MACRO_EXTENSIONS = new Set(['docm', 'dotm', 'xlsm', 'xltm', 'xlam', 'pptm', 'potm', 'ppsm', 'ppam', 'sldm']);

/** Part names that are VBA projects (or their Word companion) wherever they sit. */
const MACRO_PART_NAMES = new Set(['vbaproject.bin', 'vbadata.xml']);

/** Last path segment, without a trailing `/` (directory entries) and without Windows-trimmed dots/spaces. */
export function baseName(name: string): string {
  const segments = name.replace(/\/+$/u, '').split('/');
  return (segments[segments.length - 1] ?? '').replace(/[.\s]+$/u, '');
}

function lastExtension(name: string): string {
  const base = baseName(name);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
}

function forms(name: string): string[] {
  const nfkc = name.normalize('NFKC');
  return nfkc === name ? [name] : [name, nfkc];
}

/** True when the entry name's last extension (case-insensitive) is one that runs when opened. */
export function isExecutableName(name: string): boolean {
  return forms(name).some((form) => {
    // `run.bat::$DATA`, `x.vbs:`: Windows writes the part before the colon (paths refuse any colon;
    // names that never were paths, such as a packaged object's label, are judged here).
    const extensions = [lastExtension(form), lastExtension(form.split(':')[0] ?? '')];
    if (
      extensions.some((extension) => EXECUTABLE_EXTENSIONS.has(extension)) &&
      !OOXML_PAGE_PARTS.some((part) => part.test(form))
    ) {
      return true;
    }
    // A macOS bundle is a directory: `Tool.app/Contents/MacOS/Tool`.
    return form
      .split('/')
      .slice(0, -1)
      .some((segment) => /\.app$/iu.test(segment));
  });
}

/** True for `vbaProject.bin` / `vbaData.xml` anywhere, and for macro-enabled Office extensions. */
export function isMacroName(name: string): boolean {
  return forms(name).some(
    (form) => MACRO_PART_NAMES.has(baseName(form).toLowerCase()) || MACRO_EXTENSIONS.has(lastExtension(form)),
  );
}

// ---------------------------------------------------------------------------------------------
// Magic bytes
// ---------------------------------------------------------------------------------------------

/** How many leading bytes the magic checks below need (the tar signature sits at 257). */
export const HEAD_BYTES = 512;

function startsWith(head: Uint8Array, ...bytes: number[]): boolean {
  return head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte);
}

/**
 * True when the first bytes are those of a program: PE/DOS (`MZ`), ELF, Mach-O in both byte orders
 * and widths, fat Mach-O / Java class (`CA FE BA BE`, both executables here), a `#!` script,
 * Android DEX, or a Windows shortcut.
 */
export function isExecutableMagic(head: Uint8Array): boolean {
  return (
    startsWith(head, 0x4d, 0x5a) || // MZ
    startsWith(head, 0x7f, 0x45, 0x4c, 0x46) || // \x7fELF
    startsWith(head, 0xfe, 0xed, 0xfa, 0xce) ||
    startsWith(head, 0xfe, 0xed, 0xfa, 0xcf) ||
    startsWith(head, 0xce, 0xfa, 0xed, 0xfe) ||
    startsWith(head, 0xcf, 0xfa, 0xed, 0xfe) ||
    startsWith(head, 0xca, 0xfe, 0xba, 0xbe) || // fat Mach-O or Java class
    startsWith(head, 0xca, 0xfe, 0xba, 0xbf) || // fat Mach-O, 64-bit offsets
    startsWith(head, 0xbe, 0xba, 0xfe, 0xca) || // fat Mach-O, little-endian writer
    startsWith(head, 0x23, 0x21) || // #!
    startsWith(head, 0x64, 0x65, 0x78, 0x0a) || // dex\n
    startsWith(head, 0x4c, 0x00, 0x00, 0x00, 0x01, 0x14, 0x02, 0x00) // .lnk header
  );
}

export type ArchiveKind = 'zip' | 'sevenzip' | 'rar' | 'gzip' | 'bzip2' | 'xz' | 'zstd' | 'cab' | 'tar';

/**
 * A tar header without the POSIX `ustar` marker (v7 tar, written by old tools and by hand): its
 * checksum field (octal, offset 148) equals the byte sum of the header with that field read as
 * spaces. Random or text bytes almost never satisfy it, and an all-zero block is refused.
 */
function isTarHeader(head: Uint8Array): boolean {
  if (head.length < 512 || head[0] === 0) {
    return false;
  }
  const field = Buffer.from(head.subarray(148, 156)).toString('latin1');
  const match = /^ *([0-7]{1,7})[ \0]/u.exec(field);
  if (match?.[1] === undefined) {
    return false;
  }
  let sum = 8 * 0x20;
  for (let index = 0; index < 512; index += 1) {
    sum += index >= 148 && index < 156 ? 0 : (head[index] ?? 0);
  }
  return sum === Number.parseInt(match[1], 8);
}

/** The container format the first bytes announce, or null. */
export function archiveKind(head: Uint8Array): ArchiveKind | null {
  if (
    startsWith(head, 0x50, 0x4b, 0x03, 0x04) ||
    startsWith(head, 0x50, 0x4b, 0x05, 0x06) || // empty zip
    startsWith(head, 0x50, 0x4b, 0x07, 0x08) // spanning marker before the first entry
  ) {
    return 'zip';
  }
  if (startsWith(head, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) {
    return 'sevenzip';
  }
  if (startsWith(head, 0x52, 0x61, 0x72, 0x21, 0x1a, 0x07)) {
    return 'rar';
  }
  if (startsWith(head, 0x1f, 0x8b)) {
    return 'gzip';
  }
  if (startsWith(head, 0x42, 0x5a, 0x68)) {
    return 'bzip2';
  }
  if (startsWith(head, 0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) {
    return 'xz';
  }
  if (startsWith(head, 0x28, 0xb5, 0x2f, 0xfd)) {
    return 'zstd';
  }
  if (startsWith(head, 0x4d, 0x53, 0x43, 0x46)) {
    return 'cab';
  }
  if (
    (head.length >= 262 && Buffer.from(head.subarray(257, 262)).toString('latin1') === 'ustar') ||
    isTarHeader(head)
  ) {
    return 'tar';
  }
  return null;
}

/**
 * Extensions of containers whose signature may be missing from the first 512 bytes (an ISO or UDF
 * image has it at 32,769, a raw LZMA stream and a v7 tar have none) or that a name alone makes an
 * extractor open. An entry so named is handed to 7-Zip whatever its first bytes say, and refused as
 * `archive_unreadable` when 7-Zip cannot open it (lz4, for one): what stays closed could hide
 * anything.
 */
// prettier-ignore
const CONTAINER_EXTENSIONS = new Set([
  'zip', 'zipx', '7z', 'rar', 'tar', 'tgz', 'tbz', 'tbz2', 'txz', 'tzst', 'taz', 'tlz',
  'gz', 'gzip', 'bz2', 'bzip2', 'xz', 'zst', 'z', 'lz', 'lzma', 'lzma86', 'lz4', 'lzh', 'lha',
  'iso', 'img', 'udf', 'vhd', 'vhdx', 'avhdx', 'vmdk', 'vdi', 'qcow', 'qcow2', 'wim', 'swm', 'esd',
  'cpio', 'arj', 'cab', 'dmg', 'hfs', 'xar', 'squashfs', 'cramfs',
]);

/** True when an entry's name says it is a container (see CONTAINER_EXTENSIONS). */
export function isContainerName(name: string): boolean {
  return forms(name).some((form) => CONTAINER_EXTENSIONS.has(lastExtension(form)));
}

export function isArchiveMagic(head: Uint8Array): boolean {
  return archiveKind(head) !== null;
}

/** OLE2 compound file (`.doc`, `.xls`, `.msi`, OOXML `embeddings/*.bin`, `vbaProject.bin`). */
export function isOle2Magic(head: Uint8Array): boolean {
  return startsWith(head, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
}

// ---------------------------------------------------------------------------------------------
// Throwing forms, so every inspector refuses with the same codes and details
// ---------------------------------------------------------------------------------------------

/** Throws `archive_executable` or `archive_macro` for a dangerous entry name. */
export function checkEntryName(name: string): void {
  if (isMacroName(name)) {
    throw new AppError('archive_macro', 'An archive entry is a macro project or a macro-enabled document.');
  }
  if (isExecutableName(name)) {
    throw new AppError('archive_executable', 'An archive entry has an executable file extension.');
  }
}

/** Throws `archive_executable` when an entry's first bytes are those of a program. */
export function checkEntryHead(head: Uint8Array): void {
  if (isExecutableMagic(head)) {
    throw new AppError('archive_executable', 'An archive entry is an executable program.');
  }
}

/** Throws `archive_path_traversal` for a symbolic link entry (its target could point anywhere). */
export function checkNotSymlink(isSymlink: boolean): void {
  if (isSymlink) {
    throw new AppError('archive_path_traversal', 'An archive entry is a symbolic link.');
  }
}

/** Unix mode bits of a ZIP/RAR "external attributes" word: a symlink is S_IFLNK (0o120000). */
export function isUnixSymlinkMode(mode: number): boolean {
  return (mode & 0o170000) === 0o120000;
}
