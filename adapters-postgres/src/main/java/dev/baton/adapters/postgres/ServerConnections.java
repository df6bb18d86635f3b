package dev.baton.adapters.postgres;

import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * How many connections PostgreSQL ever accepts from the pool's user: {@code max_connections}, less the slots it keeps
 * for superusers when the user is not one. A pool larger than that never fills: PostgreSQL refuses the rest ("too many
 * clients"), and jobs beyond it wait for a connection until they time out.
 */
record ServerConnections(int maxConnections, int reservedForSuperusers, boolean superuser) {
    private static final String SQL = "SELECT current_setting('max_connections')::int,"
            + " current_setting('superuser_reserved_connections')::int,"
            + " (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)";

    static ServerConnections read(Handle handle) {
        return handle.createQuery(SQL).map((rows, context) -> new ServerConnections(rows.getInt(1), rows.getInt(2),
                rows.getBoolean(3))).one();
    }

    /** The most connections this user can ever hold at once, with no other client connected. */
    int forThisUser() {
        return superuser ? maxConnections : maxConnections - reservedForSuperusers;
    }

    /** Why a pool of {@code poolSize} cannot fill on this server, if it cannot. */
    Optional<String> refusing(int poolSize) {
        if (poolSize <= forThisUser()) {
            return Optional.empty();
        }
        return Optional.of("BATON_POOL_SIZE " + poolSize + " is more connections than PostgreSQL ever accepts from"
                + " this user (" + forThisUser() + ": max_connections " + maxConnections
                + (superuser ? "" : ", less " + reservedForSuperusers + " superuser_reserved_connections")
                + "): jobs beyond that wait for a connection and time out; lower BATON_POOL_SIZE or"
                + " BATON_CONCURRENCY, or raise max_connections");
    }
}
