import { uuidV7 } from "@cisbook/adapters/system/IdGeneratorLive"
import { SystemLive } from "@cisbook/adapters/system/SystemLive"
import { isUuid } from "@cisbook/core/Ids"
import { Clock } from "@cisbook/core/system/Clock"
import { Crypto } from "@cisbook/core/system/Crypto"
import { IdGenerator } from "@cisbook/core/system/IdGenerator"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"

layer(SystemLive)("SystemLive", (it) => {
  it.effect("makes lower-case UUIDs of version 7 that sort by the millisecond they were made in", () =>
    Effect.gen(function* () {
      const id = yield* (yield* IdGenerator).uuid
      expect(isUuid(id)).toBe(true)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      expect(uuidV7(0x0123456789ab, new Uint8Array(10))).toBe("01234567-89ab-7000-8000-000000000000")
      expect(uuidV7(1_000, new Uint8Array(10).fill(255)) < uuidV7(1_001, new Uint8Array(10))).toBe(true)
    })
  )

  it.effect("never repeats the random part of an id, across refills of its pool of random bytes", () =>
    Effect.gen(function* () {
      const ids = yield* Effect.replicateEffect((yield* IdGenerator).uuid, 3_000)
      const randomParts = new Set(ids.map((id) => id.slice(15)))
      expect(randomParts.size).toBe(ids.length)
    })
  )

  it.effect("hashes with SHA-256 and draws the random bytes asked for", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      expect(yield* crypto.sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
      const bytes = yield* crypto.randomBytes(32)
      expect(bytes).toBeInstanceOf(Uint8Array)
      expect(bytes.length).toBe(32)
      expect(yield* crypto.randomBytes(32)).not.toEqual(bytes)
    })
  )

  it.effect("tells the wall-clock time", () =>
    Effect.gen(function* () {
      const before = Date.now()
      const now = yield* (yield* Clock).now
      expect(now.getTime()).toBeGreaterThanOrEqual(before)
      expect(now.getTime()).toBeLessThanOrEqual(Date.now())
    })
  )
})
