import { Effect, RuntimeFlags, RuntimeFlagsPatch, Supervisor } from "effect"

/**
 * Counts the Effect operations the runtime steps through and the fibers it starts while an
 * effect runs (BENCH_COUNT_OPS): the per-request work of the framework, which a CPU profile
 * spreads thin. Supervising every operation slows the process: CPU figures taken meanwhile
 * are not to be compared.
 */
export class OpCounter extends Supervisor.AbstractSupervisor<void> {
  operations = 0
  fibers = 0
  readonly byKind = new Map<string, number>()
  get value() {
    return Effect.void
  }
  override onStart() {
    this.fibers++
  }
  override onEffect(_fiber: unknown, effect: unknown) {
    this.operations++
    const kind = String((effect as { readonly _op?: unknown })._op ?? "?")
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1)
  }
  /** The counts so far, and zero again. */
  take() {
    const taken = { operations: this.operations, fibers: this.fibers, byKind: new Map(this.byKind) }
    this.operations = 0
    this.fibers = 0
    this.byKind.clear()
    return taken
  }
}

/** Runs `effect` (and every fiber it starts, servers' request fibers included) under `counter`. */
export const countingOps =
  (counter: OpCounter) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(
      Effect.supervised(counter),
      Effect.withRuntimeFlagsPatch(RuntimeFlagsPatch.enable(RuntimeFlags.OpSupervision))
    )
