import * as Prometheus from "prom-client"

/** A job's name as its metrics carry it: its log name in snake case ("webhook deliveries" is webhook_deliveries). */
export const jobLabel = (name: string) => name.replaceAll(" ", "_")

export const jobAttempts = new Prometheus.Counter({
  name: "cisbook_job_attempts_total",
  help: "Attempts at background job items (a webhook delivery, a mail, a verification request, a return), by job",
  labelNames: ["job"] as const
})

export const jobFailures = new Prometheus.Counter({
  name: "cisbook_job_failures_total",
  help: "Attempts that failed (to be tried again, or given up), by job",
  labelNames: ["job"] as const
})
