import { ConfigProvider, Effect } from "effect"

/** Reads `config` from exactly these environment variables. */
export const withEnv =
  (env: Record<string, string>) =>
  <A, E, R>(config: Effect.Effect<A, E, R>) =>
    Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env))))

/** The message a setting's refusal gives for these environment variables. */
export const refused = <A, E, R>(env: Record<string, string>, config: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(withEnv(env)(config)), String)
