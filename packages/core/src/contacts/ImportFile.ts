import { Data, type Effect, type Stream } from "effect"

/** The file cannot be read as CSV text; `reason` says why, for the person who sent it. */
export class CsvUnreadable extends Data.TaggedError("CsvUnreadable")<{ readonly reason: string }> {}

/**
 * An uploaded import file: its name as the sender gave it, and its records (each an array of
 * cells, the header first; blank lines left out). Running `records` again reads the file again.
 */
export interface ImportFile {
  readonly name: string
  readonly records: Stream.Stream<ReadonlyArray<string>, CsvUnreadable>
  /**
   * The SHA-256 of the file's bytes, where its reader can tell it: the analysis of such a file
   * is kept, and an import of the same bytes reuses it. Without it, each call reads the file.
   */
  readonly digest?: Effect.Effect<string>
}
