import { Context, Deferred, Effect, Layer } from "effect"

/** A port every member of which is an operation that answers an Effect (the ports onFirstCall can defer). */
type Operations<S> = { readonly [K in keyof S]: (...args: never) => Effect.Effect<unknown, unknown> }

/**
 * The port whose adapter is imported, and its layer built, at the first call of one of its
 * operations, once for all callers (a dynamic `import()`, which the build puts in a chunk of its
 * own): a process that never calls the port, such as most admin commands, never loads the
 * adapter and the libraries it brings. The layer it loads needs only what this one is given and
 * cannot fail: read the adapter's configuration before (so that it is refused at start, as every
 * other), and hand it over.
 */
export const onFirstCall = <I, S extends Operations<S>, R>(
  tag: Context.Tag<I, S>,
  load: () => Promise<Layer.Layer<I, never, R>>
): Layer.Layer<I, never, R> =>
  Layer.scoped(
    tag,
    Effect.gen(function* () {
      const context = yield* Effect.context<R>()
      const scope = yield* Effect.scope
      // Loaded by a fiber of the layer's own scope, which the first call starts and every call
      // awaits: a caller interrupted (a time-out) while it loads interrupts only its own waiting.
      const service = yield* Deferred.make<S>()
      const startLoading = yield* Effect.once(
        Effect.promise(load).pipe(
          Effect.flatMap((layer) => Layer.buildWithScope(layer, scope)),
          Effect.map(Context.get(tag)),
          Effect.provide(context),
          Effect.intoDeferred(service),
          Effect.forkIn(scope)
        )
      )
      const loaded = Effect.zipRight(Effect.uninterruptible(startLoading), Deferred.await(service))
      const operation =
        (name: string) =>
        (...args: ReadonlyArray<unknown>) =>
          Effect.flatMap(loaded, (service) => {
            const member: unknown = Reflect.get(service, name)
            return (member as (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown>)(...args)
          })
      // Every member is an operation (Operations), so that each name read is answered by one that
      // loads the adapter, then calls the adapter's own; `then` is left alone, as a plain object's.
      return new Proxy({} as S, {
        get: (_, name) => (typeof name === "string" && name !== "then" ? operation(name) : undefined)
      })
    })
  )
