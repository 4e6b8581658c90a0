import { Duration } from "effect"

const FIRST = Duration.seconds(30)
const LONGEST = Duration.hours(1)

/**
 * How long a request waits after the tax authority could not be reached on its `attempts`-th
 * try: 30 s, doubling, at most an hour. It is tried until it is answered: a request is never
 * given up.
 */
export const retryDelay = (attempts: number): Duration.Duration =>
  Duration.min(Duration.times(FIRST, 2 ** Math.min(Math.max(attempts - 1, 0), 20)), LONGEST)
