import { Unauthorized } from "@cisbook/core/Errors"
import { IdentityVerifier } from "@cisbook/core/users/IdentityVerifier"
import { Config, Effect, Layer, Option } from "effect"
import { createRemoteJWKSet, errors, jwtVerify } from "jose"

/** Asymmetric algorithms only: `none` and HMAC (which a public key must never verify) are refused. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]

export interface JwksOptions {
  readonly jwksUrl: URL
  readonly issuer: string
  readonly audience: string
  /** How far the identity provider's clock may be ahead of or behind ours (exp, nbf, iat), in seconds. */
  readonly clockSkewSeconds: number
}

/** AUTH_CLOCK_SKEW_SECONDS's default: enough for clocks kept by NTP, short enough not to stretch a token's life. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 30

/** The most AUTH_CLOCK_SKEW_SECONDS may be: a larger skew would keep an expired token working for minutes. */
const MAX_CLOCK_SKEW_SECONDS = 60

class IssuedInTheFuture extends Error {}

const reason = (error: unknown): string => {
  if (error instanceof IssuedInTheFuture) return "The access token was issued in the future; check the clocks."
  if (error instanceof errors.JWTClaimValidationFailed && error.reason === "missing") {
    return `The access token has no ${error.claim} claim; this service requires one.`
  }
  if (error instanceof errors.JWTExpired)
    return "The access token has expired; get a new one from the identity provider."
  if (error instanceof errors.JWTClaimValidationFailed) {
    return `The access token was not issued for this service (${error.claim} does not match).`
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return "The access token is signed with an algorithm this service does not accept."
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed) {
    return "The access token's signature is not valid."
  }
  return "The access token is not valid."
}

export const jwksIdentityVerifier = (options: JwksOptions) =>
  Layer.sync(IdentityVerifier, () => {
    const keys = createRemoteJWKSet(options.jwksUrl)
    return IdentityVerifier.of({
      verify: (token) =>
        Effect.tryPromise({
          try: async () => {
            const verified = await jwtVerify(token, keys, {
              issuer: options.issuer,
              audience: options.audience,
              algorithms: ALGORITHMS,
              requiredClaims: ["exp"],
              clockTolerance: options.clockSkewSeconds
            })
            // jose checks iat only together with a maximum token age, which would also refuse old tokens.
            const { iat } = verified.payload
            if (typeof iat === "number" && iat > Date.now() / 1000 + options.clockSkewSeconds)
              throw new IssuedInTheFuture()
            return verified
          },
          catch: (error) => error
        }).pipe(
          Effect.tapError((error) =>
            error instanceof errors.JWKSTimeout ||
            !(error instanceof errors.JOSEError || error instanceof IssuedInTheFuture)
              ? Effect.logWarning("Could not verify a bearer token against the JWKS", error)
              : Effect.void
          ),
          Effect.mapError((error) => new Unauthorized({ detail: reason(error) })),
          Effect.flatMap(({ payload }) =>
            typeof payload.sub === "string" && payload.sub !== ""
              ? Effect.succeed({
                  subject: payload.sub,
                  email: typeof payload["email"] === "string" ? payload["email"] : undefined,
                  emailVerified: typeof payload["email_verified"] === "boolean" ? payload["email_verified"] : undefined,
                  name: typeof payload["name"] === "string" ? payload["name"] : undefined
                })
              : Effect.fail(new Unauthorized({ detail: "The access token has no subject (sub) claim." }))
          )
        )
    })
  })

const bearerOff = Layer.succeed(
  IdentityVerifier,
  IdentityVerifier.of({
    verify: () =>
      Effect.fail(
        new Unauthorized({
          detail: "This server accepts no bearer tokens (no identity provider is configured); use an API key."
        })
      )
  })
)

/**
 * AUTH_JWKS_URL turns bearer tokens on; AUTH_ISSUER and AUTH_AUDIENCE are then required, and
 * AUTH_CLOCK_SKEW_SECONDS (0 to 60, default 30) is the clock skew a token's exp, nbf and iat are allowed.
 */
export const IdentityProviderConfig = Effect.gen(function* () {
  const jwksUrl = yield* Config.option(Config.url("AUTH_JWKS_URL"))
  if (Option.isNone(jwksUrl)) return Option.none<JwksOptions>()
  const issuer = yield* Config.string("AUTH_ISSUER")
  const audience = yield* Config.string("AUTH_AUDIENCE")
  const clockSkewSeconds = yield* Config.withDefault(
    Config.integer("AUTH_CLOCK_SKEW_SECONDS").pipe(
      Config.validate({
        message: `must be from 0 to ${MAX_CLOCK_SKEW_SECONDS} (seconds)`,
        validation: (seconds) => seconds >= 0 && seconds <= MAX_CLOCK_SKEW_SECONDS
      })
    ),
    DEFAULT_CLOCK_SKEW_SECONDS
  )
  return Option.some<JwksOptions>({ jwksUrl: jwksUrl.value, issuer, audience, clockSkewSeconds })
})

export const IdentityVerifierLive = Layer.unwrapEffect(
  Effect.map(IdentityProviderConfig, Option.match({ onNone: () => bearerOff, onSome: jwksIdentityVerifier }))
)
