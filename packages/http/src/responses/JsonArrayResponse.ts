import { HttpServerResponse } from "@effect/platform"
import { Chunk, Stream } from "effect"

/**
 * A 200 response whose body is a JSON array written as the stream produces its items, so a
 * long array is never held in memory whole. `encode` gives each item's JSON value.
 */
export const jsonArrayResponse = <A, E>(items: Stream.Stream<A, E>, encode: (item: A) => unknown) =>
  HttpServerResponse.stream(
    Stream.make("[").pipe(
      Stream.concat(
        items.pipe(
          Stream.mapAccum(
            true,
            (first, item) => [false, `${first ? "" : ","}${JSON.stringify(encode(item))}`] as const
          ),
          Stream.mapChunks((texts) => Chunk.of(Chunk.join(texts, "")))
        )
      ),
      Stream.concat(Stream.make("]")),
      Stream.encodeText
    ),
    { contentType: "application/json" }
  )
