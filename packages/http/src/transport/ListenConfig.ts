import { Config } from "effect"

/** PORT (default 3000) and HOST (default 0.0.0.0): where the server listens. */
export const ListenConfig = Config.all({
  port: Config.withDefault(Config.port("PORT"), 3000),
  host: Config.withDefault(Config.string("HOST"), "0.0.0.0")
})
