/**
 * The numbers of the zip format (PKWARE APPNOTE 6.3.10) that the package reader checks. Only what
 * a plugin package may use is named here: anything else is refused, not interpreted.
 */

/** Record signatures, as little-endian 32-bit values. */
export const ZIP_SIGNATURE = {
  localFileHeader: 0x04034b50,
  centralFileHeader: 0x02014b50,
  dataDescriptor: 0x08074b50,
  endOfCentralDirectory: 0x06054b50,
  zip64EndOfCentralDirectory: 0x06064b50,
  zip64EndOfCentralDirectoryLocator: 0x07064b50,
} as const;

/** Bits of the general purpose flag. */
export const ZIP_FLAG = {
  /** Traditional PKWARE encryption. */
  encrypted: 0x0001,
  /** CRC and sizes follow the data in a data descriptor (streaming writers). */
  dataDescriptor: 0x0008,
  /** PKWARE strong encryption. */
  strongEncryption: 0x0040,
  /** The name (and comment) are UTF-8 ("language encoding flag", EFS). */
  utf8: 0x0800,
  /** Local header values are masked because the central directory is encrypted. */
  maskedLocalHeader: 0x2000,
} as const;

/** Any of these flags means some content is encrypted, which a package never is. */
export const ZIP_ENCRYPTION_FLAGS = ZIP_FLAG.encrypted | ZIP_FLAG.strongEncryption | ZIP_FLAG.maskedLocalHeader;

/** The two compression methods a package may use. */
export const ZIP_METHOD = { stored: 0, deflated: 8 } as const;

/** Extra field header ids the reader interprets. */
export const ZIP_EXTRA_FIELD = {
  /** Zip64 extended information: 64-bit sizes and offset. */
  zip64: 0x0001,
  /** Info-ZIP Unicode Path: a UTF-8 name that some readers prefer over the header's name. */
  unicodePath: 0x7075,
} as const;

/** Fixed lengths of the records, before their variable parts. */
export const ZIP_RECORD_LENGTH = {
  localFileHeader: 30,
  centralFileHeader: 46,
  endOfCentralDirectory: 22,
  zip64EndOfCentralDirectory: 56,
  zip64EndOfCentralDirectoryLocator: 20,
} as const;

/** A 16-bit field holding this value defers to the zip64 record. */
export const UINT16_SATURATED = 0xffff;
/** A 32-bit field holding this value defers to the zip64 extra field or record. */
export const UINT32_SATURATED = 0xffffffff;

/** Unix file type bits (`S_IFMT`) in the upper 16 bits of the external attributes. */
export const UNIX_FILE_TYPE = {
  mask: 0o170000,
  regular: 0o100000,
  directory: 0o040000,
  symbolicLink: 0o120000,
} as const;
