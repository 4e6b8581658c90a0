import { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"
import type { Duplex, Readable } from "node:stream"

const boundaryOf = (contentType: string) => /;\s*boundary=(?:"([^"]+)"|([^;\s"]+))/i.exec(contentType)

/**
 * Runs the request so that a multipart body ending without its closing delimiter fails the
 * multipart parser and its open files (a Parse error, answered 400) the moment the body ends. The parser itself
 * waits for the rest for ever, holding the socket and the temporary file until the client gives
 * up. The body is read beside the parser from the moment it is piped to the parser: listening
 * any earlier would start the flow before the parser is there to receive it.
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
      Effect.sync(() => {
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
            parser.destroy(new Error("The multipart body ended before its closing boundary"))
          })
          return pipe.call(source, parser, options) as T
        }
      }),
      () => handle,
      () =>
        Effect.sync(() => {
          source.pipe = pipe
        })
    )
  })
