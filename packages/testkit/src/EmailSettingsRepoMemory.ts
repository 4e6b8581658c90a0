import type { TenantId } from "@cisbook/core/Ids"
import type { EmailSettings } from "@cisbook/core/mail/EmailSettings"
import { type CustomTemplate, EmailSettingsRepo } from "@cisbook/core/mail/EmailSettingsRepo"
import { TenantRepo } from "@cisbook/core/tenants/TenantRepo"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

export const EmailSettingsRepoMemory = Layer.effect(
  EmailSettingsRepo,
  Effect.gen(function* () {
    const tenants = yield* TenantRepo
    const journal = yield* MemoryJournal
    const settings = yield* journal.ref<ReadonlyMap<TenantId, EmailSettings>>(new Map())
    const templates = yield* journal.ref<ReadonlyArray<CustomTemplate & { readonly tenantId: TenantId }>>([])
    const others = (tenantId: TenantId, type: string) =>
      Ref.update(templates, (all) => all.filter((t) => t.tenantId !== tenantId || t.type !== type))
    const customOf = (tenantId: TenantId) =>
      Effect.map(Ref.get(templates), (all) =>
        all.filter((t) => t.tenantId === tenantId).map(({ body, subject, type }) => ({ type, subject, body }))
      )
    return EmailSettingsRepo.of({
      getSettings: (tenantId) => Effect.map(Ref.get(settings), (all) => Option.fromNullable(all.get(tenantId))),
      setSettings: (tenantId, value) => Ref.update(settings, (all) => new Map(all).set(tenantId, value)),
      listTemplates: customOf,
      saveTemplate: (tenantId, template) =>
        Effect.zipRight(
          others(tenantId, template.type),
          Ref.update(templates, (all) => [...all, { tenantId, ...template }])
        ),
      deleteTemplate: others,
      mailContext: (tenantId, type) =>
        Effect.gen(function* () {
          const all = yield* tenants.listAll()
          const found = all.find(({ tenant }) => tenant.id === tenantId)
          if (found === undefined) return yield* Effect.die(`There is no tenant ${tenantId}`)
          const custom = (yield* customOf(tenantId)).find((t) => t.type === type)
          return {
            tenantName: found.tenant.name,
            tenantEmail: found.tenant.email,
            signature: (yield* Ref.get(settings)).get(tenantId)?.signature ?? null,
            template: Option.fromNullable(custom).pipe(Option.map(({ body, subject }) => ({ subject, body })))
          }
        })
    })
  })
)
