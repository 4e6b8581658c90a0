import { Either, ParseResult, Schema } from "effect"

/** The decoded value, or the user-facing messages of the failure. */
export const decode =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (input: unknown): Either.Either<A, ReadonlyArray<string>> =>
    Schema.decodeUnknownEither(schema, { errors: "all" })(input).pipe(
      Either.mapLeft((error) => ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => issue.message))
    )
