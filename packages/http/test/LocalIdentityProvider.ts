import { Effect } from "effect"
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export const ISSUER = "https://id.test.cisbook"
export const AUDIENCE = "cisbook-api"

/** A real JWKS endpoint on loopback, and a signer for tokens it vouches for. */
export const startLocalIdentityProvider = Effect.acquireRelease(
  Effect.promise(async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256")
    const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" }
    const server = createServer((_, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ keys: [jwk] }))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as AddressInfo).port
    /** `expiresIn: null` leaves `exp` out; `issuedAt` is "now" unless given (seconds since the epoch). */
    const sign = (
      claims: JWTPayload,
      options: { expiresIn?: string | null; audience?: string; issuer?: string; issuedAt?: number } = {}
    ) => {
      const jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: "test-key" })
        .setIssuedAt(options.issuedAt)
        .setIssuer(options.issuer ?? ISSUER)
        .setAudience(options.audience ?? AUDIENCE)
      return (options.expiresIn === null ? jwt : jwt.setExpirationTime(options.expiresIn ?? "5m")).sign(privateKey)
    }
    return { jwksUrl: new URL(`http://127.0.0.1:${port}/jwks`), sign, server }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)
