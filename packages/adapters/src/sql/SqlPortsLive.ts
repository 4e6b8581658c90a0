import { Layer } from "effect"
import { ApiKeyRepoSql } from "./ApiKeyRepoSql.js"
import { TenantRepoSql } from "./TenantRepoSql.js"
import { TransactorSql } from "./TransactorSql.js"
import { UserRepoSql } from "./UserRepoSql.js"

/** The ports PostgreSQL implements, over the SqlClient the composition root provides. */
export const SqlPortsLive = Layer.mergeAll(UserRepoSql, TenantRepoSql, ApiKeyRepoSql, TransactorSql)
