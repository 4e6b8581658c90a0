import { Context, type Effect, type Option } from "effect"
import type { TenantId } from "../Ids.js"
import type { CredentialsStatus, HmrcCredentials, SenderCredentials } from "./HmrcCredentials.js"

/**
 * Each tenant's Government Gateway credentials. An implementation keeps the password only
 * encrypted at rest: a copy of the store alone never reveals one.
 */
export class HmrcCredentialsRepo extends Context.Tag("core/HmrcCredentialsRepo")<
  HmrcCredentialsRepo,
  {
    /** None until they are set. */
    readonly find: (tenantId: TenantId) => Effect.Effect<Option.Option<HmrcCredentials>>
    /**
     * The same, locking them until the caller's transaction ends: a replacement waits for it, and
     * the caller sees a replacement made before.
     */
    readonly findForUpdate: (tenantId: TenantId) => Effect.Effect<Option.Option<HmrcCredentials>>
    /** Sets or replaces them, `Unchecked`, as of `at`. */
    readonly set: (tenantId: TenantId, credentials: SenderCredentials, at: Date) => Effect.Effect<void>
    /** Removes them; false when there were none. */
    readonly remove: (tenantId: TenantId) => Effect.Effect<boolean>
    /**
     * Records what HMRC made of the credentials set at `setAt` (the ones a message was sent with),
     * or that nothing is known of them any more (`Unchecked`: their refusal was the CIS scheme's
     * doing, since corrected); false, and nothing changed, when they were replaced or removed since.
     */
    readonly recordStatus: (tenantId: TenantId, setAt: Date, status: CredentialsStatus) => Effect.Effect<boolean>
    /**
     * Stores every tenant's password again as a new key would have it (a store that encrypts
     * re-encrypts under its current key); how many were rewritten.
     */
    readonly reseal: () => Effect.Effect<number>
  }
>() {}
