/** The PostgreSQL notification channel on which a revoked credential is announced to every server process. */
export const REVOCATION_CHANNEL = "cisbook_credentials_revoked"
