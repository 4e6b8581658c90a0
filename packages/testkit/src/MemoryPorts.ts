import { Layer } from "effect"
import { ApiKeyRepoMemory } from "./ApiKeyRepoMemory.js"
import { ContactActivityMemory } from "./ContactActivityMemory.js"
import { ContactRepoMemory } from "./ContactRepoMemory.js"
import { EventOutboxMemory, OutboxStore, RecordedEventsMemory } from "./EventOutboxMemory.js"
import { MemoryJournal } from "./MemoryJournal.js"
import { ClockManual, CryptoFake, IdGeneratorSequential, TransactorMemory } from "./SystemFakes.js"
import { TenantRepoMemory } from "./TenantRepoMemory.js"
import { TenantSettingsRepoMemory } from "./TenantSettingsRepoMemory.js"
import { UserRepoMemory } from "./UserRepoMemory.js"

/** Every storage and system port, in memory (the identity verifier is chosen per test). */
export const MemoryPorts = Layer.mergeAll(
  TenantRepoMemory,
  ApiKeyRepoMemory,
  EventOutboxMemory,
  RecordedEventsMemory,
  TenantSettingsRepoMemory,
  ContactRepoMemory,
  ContactActivityMemory
).pipe(
  Layer.provideMerge(OutboxStore.Default),
  Layer.provideMerge(UserRepoMemory),
  Layer.provideMerge(Layer.mergeAll(ClockManual, IdGeneratorSequential, CryptoFake, TransactorMemory)),
  Layer.provide(MemoryJournal.Default)
)
