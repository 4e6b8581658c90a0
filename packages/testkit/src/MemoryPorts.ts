import { Layer } from "effect"
import { ApiKeyRepoMemory } from "./ApiKeyRepoMemory.js"
import { identityVerifierFake } from "./IdentityVerifierFake.js"
import { ClockManual, CryptoFake, IdGeneratorSequential, TransactorPassThrough } from "./SystemFakes.js"
import { TenantRepoMemory } from "./TenantRepoMemory.js"
import { UserRepoMemory } from "./UserRepoMemory.js"

/** Every port, in memory. */
export const MemoryPorts = Layer.mergeAll(TenantRepoMemory, ApiKeyRepoMemory).pipe(
  Layer.provideMerge(UserRepoMemory),
  Layer.provideMerge(Layer.mergeAll(ClockManual, IdGeneratorSequential, CryptoFake, TransactorPassThrough, identityVerifierFake({})))
)
