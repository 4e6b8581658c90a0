import { Config } from "effect"

/** METRICS_PORT: where GET /metrics answers, on a listener of its own; unset (the default), nowhere. */
export const MetricsPortConfig = Config.option(Config.port("METRICS_PORT"))
