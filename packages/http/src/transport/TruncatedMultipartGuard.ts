import { HttpServerRequest, Multipart } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Deferred, Effect, Exit } from "effect"
import type { Duplex, Readable } from "node:stream"

const boundaryOf = (contentType: string) => /;\s*boundary=(?:"([^"]+)"|([^;\s"]+))/i.exec(contentType)

const cutShort = () =>
  new Multipart.MultipartError({
    reason: "Parse",
    cause: new Error("The multipart body ended before its closing boundary")
  })

/**
 * Runs the request so that a multipart body ending without its closing delimiter fails the
 * request (a Parse error, answered 400) the moment the body ends, and its parser and open files
 * with it. The parser itself waits for the rest for ever, holding the socket and the temporary
 * file until the client gives up. The request fails by itself, not only through the parser's
 * error: a body cut one character into its close delimiter (`\r\n--b-`) ended the file part,
 * and the parser, failed then, left the form's reader waiting all the same. The body is read
 * beside the parser from the moment it is piped to the parser: listening any earlier would start
 * the flow before the parser is there to receive it.
 */
export const failTruncatedMultipart = <A, E, R>(handle: Effect.Effect<A, E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const match = boundaryOf(request.headers["content-type"] ?? "")
    const boundary = match?.[1] ?? match?.[2]
    if (boundary === undefined) return handle
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    // The close delimiter follows a line break (the window starts with one, for a body that opens
    // with it): "--b--" anywhere else is content, and the parser waits on past it.
    const closing = Buffer.from(`\r\n--${boundary}--`)
    const pipe = source.pipe
    return Effect.acquireUseRelease(
      Effect.map(Deferred.make<never>(), (truncated) => {
        source.pipe = function <T extends NodeJS.WritableStream>(parser: T & Duplex, options?: { end?: boolean }) {
          let tail = Buffer.from("\r\n")
          let closed = false
          const files: Array<Readable> = []
          parser.on("file", (file: Readable) => files.push(file))
          source.on("data", (chunk: Buffer) => {
            if (closed) return
            const window = Buffer.concat([tail, chunk])
            closed = window.includes(closing)
            tail = window.subarray(Math.max(0, window.length - closing.length + 1))
          })
          source.once("end", () => {
            if (closed) return
            // Closing a file early fails whatever is writing it to disk; an error event could find no listener.
            for (const file of files) if (!file.readableEnded) file.destroy()
            const error = cutShort()
            parser.destroy(error.cause as Error)
            // A defect, as the platform reports its own faults of a request's body: answered 400 all the same.
            Deferred.unsafeDone(truncated, Exit.die(error))
          })
          return pipe.call(source, parser, options) as T
        }
        return truncated
      }),
      (truncated) => Effect.raceFirst(handle, Effect.interruptible(Deferred.await(truncated))),
      () =>
        Effect.sync(() => {
          source.pipe = pipe
        })
    )
  })
