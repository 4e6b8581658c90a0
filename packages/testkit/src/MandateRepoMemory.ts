import { Mandate } from "@cisbook/core/billing/mandates/Mandate"
import { MandateRepo } from "@cisbook/core/billing/mandates/MandateRepo"
import { DuplicateKey } from "@cisbook/core/system/DuplicateKey"
import { Effect, Layer, Option, Ref } from "effect"
import { MemoryJournal } from "./MemoryJournal.js"

const isLive = (m: Mandate) => m.status === "InProgress" || m.status === "Active"

/** Mandates in insertion order; at most one live per user, as the SQL partial unique index has it. */
export const MandateRepoMemory = Layer.effect(
  MandateRepo,
  Effect.gen(function* () {
    const journal = yield* MemoryJournal
    const state = yield* journal.ref<ReadonlyArray<Mandate>>([])
    const clashes = (all: ReadonlyArray<Mandate>, m: Mandate) =>
      isLive(m) && all.some((other) => other.userId === m.userId && other.id !== m.id && isLive(other))
    const find = (p: (m: Mandate) => boolean) =>
      Effect.map(Ref.get(state), (all) => Option.fromNullable(all.filter(p).at(-1)))

    return MandateRepo.of({
      reserve: (mandate, now) =>
        Ref.modify(state, (all): [ReadonlyArray<string> | null, ReadonlyArray<Mandate>] => {
          const expiring = (m: Mandate) => m.userId === mandate.userId && m.isExpiredFlow(now)
          const expired = all.map((m) => (expiring(m) ? new Mandate({ ...m, status: "Expired" }) : m))
          const setups = all.flatMap((m) => (expiring(m) && m.redirectFlowId !== null ? [m.redirectFlowId] : []))
          return clashes(expired, mandate) ? [null, all] : [setups, [...expired, mandate]]
        }).pipe(
          Effect.flatMap((setups) =>
            setups === null ? Effect.fail(new DuplicateKey({ key: "live" })) : Effect.succeed(setups)
          )
        ),
      replace: (read, next) =>
        Ref.modify(state, (all): [boolean | "clash", ReadonlyArray<Mandate>] => {
          const current = all.find((m) => m.userId === read.userId && m.id === read.id)
          if (current === undefined || current.status !== read.status || current.reference !== read.reference) {
            return [false, all]
          }
          if (clashes(all, next)) return ["clash", all]
          return [true, all.map((m) => (m === current ? next : m))]
        }).pipe(
          Effect.flatMap((stored) =>
            stored === "clash" ? Effect.fail(new DuplicateKey({ key: "live" })) : Effect.succeed(stored)
          )
        ),
      completeSetup: (mandate) =>
        Ref.modify(state, (all): [boolean | "clash", ReadonlyArray<Mandate>] => {
          const current = all.find((m) => m.userId === mandate.userId && m.id === mandate.id)
          if (current === undefined || current.reference !== null) return [false, all]
          if (clashes(all, mandate)) return ["clash", all]
          return [true, all.map((m) => (m === current ? mandate : m))]
        }).pipe(
          Effect.flatMap((stored) =>
            stored === "clash" ? Effect.fail(new DuplicateKey({ key: "live" })) : Effect.succeed(stored)
          )
        ),
      remove: (userId, id) => Ref.update(state, (all) => all.filter((m) => !(m.userId === userId && m.id === id))),
      latest: (userId) => find((m) => m.userId === userId),
      live: (userId) => find((m) => m.userId === userId && isLive(m)),
      liveOf: (userIds) =>
        Effect.map(
          Ref.get(state),
          (all) => new Map(all.filter((m) => isLive(m) && userIds.includes(m.userId)).map((m) => [m.userId, m]))
        ),
      findByRedirectFlow: (userId, redirectFlowId) =>
        find((m) => m.userId === userId && m.redirectFlowId === redirectFlowId),
      findBySetup: (redirectFlowId) => find((m) => m.redirectFlowId === redirectFlowId),
      findByReference: (reference) => find((m) => m.reference === reference),
      moveStatus: (mandate, from, to) =>
        Ref.modify(state, (all): [boolean | "clash", ReadonlyArray<Mandate>] => {
          const current = all.find((m) => m.userId === mandate.userId && m.id === mandate.id)
          if (current === undefined || current.status !== from) return [false, all]
          const moved = new Mandate({ ...current, status: to })
          if (clashes(all, moved)) return ["clash", all]
          return [true, all.map((m) => (m === current ? moved : m))]
        }).pipe(
          Effect.flatMap((moved) =>
            moved === "clash" ? Effect.fail(new DuplicateKey({ key: "live" })) : Effect.succeed(moved)
          )
        )
    })
  })
)
