import { Data } from "effect"

/** A write hit a uniqueness rule of the store; `key` names which one. */
export class DuplicateKey extends Data.TaggedError("DuplicateKey")<{ readonly key: string }> {}
