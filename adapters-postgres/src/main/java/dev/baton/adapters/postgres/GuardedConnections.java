package dev.baton.adapters.postgres;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;
import org.jdbi.v3.core.ConnectionFactory;

/**
 * The pool's connections as Jdbi, the ledger and the handlers get them: while an effect runs on the calling thread,
 * a connection refuses to end its transaction ({@code commit}, {@code rollback} but to a savepoint,
 * {@code setAutoCommit}, {@code close}, {@code abort}), whether the handler calls them on the JDBC connection or
 * through Jdbi's {@code Handle}. A handler's own commit would commit its writes without the job's completion, and the
 * job's retry would write them again; refused, it fails the job and nothing commits.
 */
final class GuardedConnections implements ConnectionFactory {
    private static final ThreadLocal<Boolean> EFFECT_RUNNING = ThreadLocal.withInitial(() -> Boolean.FALSE);
    private static final Set<String> ENDING_TRANSACTION = Set.of("commit", "setAutoCommit", "close", "abort");

    private final DataSource pool;

    GuardedConnections(DataSource pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    @Override
    public Connection openConnection() throws SQLException {
        Connection connection = pool.getConnection();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Guard(connection));
    }

    /** Runs a handler's effect: until it returns, this thread's connections keep their transaction open. */
    static <T> T whileEffectRuns(Effect<T> effect) throws Exception {
        EFFECT_RUNNING.set(Boolean.TRUE);
        try {
            return effect.run();
        } finally {
            EFFECT_RUNNING.set(Boolean.FALSE);
        }
    }

    /** A handler's effect, as {@link #whileEffectRuns} calls it. */
    @FunctionalInterface
    interface Effect<T> {
        T run() throws Exception;
    }

    private record Guard(Connection connection) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (EFFECT_RUNNING.get() && endsTheTransaction(method, args)) {
                throw new SQLException("a handler must not " + method.getName() + " the ledger's connection: Baton"
                        + " commits the transaction together with the job's completion");
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private static boolean endsTheTransaction(Method method, Object[] args) {
            return ENDING_TRANSACTION.contains(method.getName())
                    || method.getName().equals("rollback") && (args == null || args.length == 0);
        }
    }
}
