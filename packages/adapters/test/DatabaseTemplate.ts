import { openMigratedTemplate } from "@cisbook/adapters/sql/EphemeralDatabase"

/**
 * Vitest's global setup for the tests over a database: the run's migrated template, made once
 * (see migratedTemplate) and named in CISBOOK_TEST_DATABASE_TEMPLATE for the test processes,
 * whose EphemeralDatabase then copies it instead of migrating a database per test file. It is
 * dropped when the run ends. A template given in the environment is used as it is.
 */
export default async function setup() {
  if ((process.env["CISBOOK_TEST_DATABASE_TEMPLATE"] ?? "") !== "") return
  const { close, template } = await openMigratedTemplate()
  process.env["CISBOOK_TEST_DATABASE_TEMPLATE"] = template
  return async () => {
    delete process.env["CISBOOK_TEST_DATABASE_TEMPLATE"]
    await close()
  }
}
