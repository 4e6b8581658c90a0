import { AppLinks } from "@cisbook/core/system/AppLinks"
import { Config, Effect, Layer } from "effect"

/** APP_URL, else PUBLIC_BASE_URL, else the server's own address on localhost; without a trailing slash. */
export const AppUrl = Config.string("APP_URL").pipe(
  Config.orElse(() => Config.string("PUBLIC_BASE_URL")),
  Config.orElse(() => Config.map(Config.withDefault(Config.port("PORT"), 3000), (port) => `http://localhost:${port}`)),
  Config.map((url) => url.replace(/\/+$/, ""))
)

/** Links into the front end at {@link AppUrl}. */
export const appLinks = (appUrl: string) =>
  Layer.succeed(AppLinks, AppLinks.of({ connection: (id) => `${appUrl}/connections/${id}` }))

export const AppLinksLive = Layer.unwrapEffect(Effect.map(AppUrl, appLinks))
