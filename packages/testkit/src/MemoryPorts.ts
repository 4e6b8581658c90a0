import { Layer } from "effect"
import { ApiKeyRepoMemory } from "./ApiKeyRepoMemory.js"
import { ContactActivityMemory } from "./ContactActivityMemory.js"
import { ContactRepoMemory } from "./ContactRepoMemory.js"
import { DeliveryRepoMemory } from "./DeliveryRepoMemory.js"
import { DestinationGuardMemory } from "./DestinationGuardFake.js"
import { EventOutboxMemory, OutboxStore, RecordedEventsMemory } from "./EventOutboxMemory.js"
import { MemoryJournal } from "./MemoryJournal.js"
import { ClockManual, CryptoFake, IdGeneratorSequential, TransactorMemory } from "./SystemFakes.js"
import { TenantRepoMemory } from "./TenantRepoMemory.js"
import { TenantSettingsRepoMemory } from "./TenantSettingsRepoMemory.js"
import { UserRepoMemory } from "./UserRepoMemory.js"
import { WebhookRepoMemory } from "./WebhookRepoMemory.js"
import { WebhookSenderMemory } from "./WebhookSenderFake.js"
import { DeliveryStore, WebhookStore } from "./WebhookStores.js"

/** Every storage and system port, in memory (the identity verifier is chosen per test). */
export const MemoryPorts = Layer.mergeAll(
  TenantRepoMemory,
  ApiKeyRepoMemory,
  EventOutboxMemory,
  RecordedEventsMemory,
  TenantSettingsRepoMemory,
  ContactRepoMemory,
  ContactActivityMemory,
  WebhookRepoMemory,
  DeliveryRepoMemory,
  DestinationGuardMemory,
  WebhookSenderMemory
).pipe(
  Layer.provideMerge(Layer.mergeAll(OutboxStore.Default, WebhookStore.Default, DeliveryStore.Default)),
  Layer.provideMerge(UserRepoMemory),
  Layer.provideMerge(Layer.mergeAll(ClockManual, IdGeneratorSequential, CryptoFake, TransactorMemory)),
  Layer.provide(MemoryJournal.Default)
)
