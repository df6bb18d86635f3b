package dev.baton.adapters.postgres;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;
import org.jdbi.v3.core.transaction.TransactionHandler;

/**
 * Keeps a handler from ending the ledger's transaction while its effect runs on the thread: Jdbi's
 * {@code Handle.commit()}/{@code rollback()} and, on the JDBC connection a handler unwraps, {@code commit},
 * {@code rollback} (but to a savepoint), {@code setAutoCommit}, {@code close} and {@code abort} are refused. A
 * handler's own commit would commit its writes without the job's completion, and the job's retry would write them
 * again; refused, it fails the job and nothing commits. Only these calls are checked: the ledger's own statements and
 * the handler's other calls go to the connection directly.
 */
final class EffectGuard {
    private static final ThreadLocal<Boolean> EFFECT_RUNNING = ThreadLocal.withInitial(() -> Boolean.FALSE);
    private static final Set<String> ENDING_TRANSACTION = Set.of("commit", "setAutoCommit", "close", "abort");

    private EffectGuard() {
    }

    /** Runs a handler's effect: until it returns, this thread cannot end the ledger's transaction. */
    static <T> T whileEffectRuns(Effect<T> effect) throws Exception {
        EFFECT_RUNNING.set(Boolean.TRUE);
        try {
            return effect.run();
        } finally {
            EFFECT_RUNNING.set(Boolean.FALSE);
        }
    }

    /** The connection as a handler gets it. */
    static Connection guarded(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new GuardedConnection(connection));
    }

    private static String refusal(String call) {
        return "a handler must not " + call + " the ledger's transaction: Baton commits it together with the job's"
                + " completion";
    }

    /** A handler's effect, as {@link #whileEffectRuns} calls it. */
    @FunctionalInterface
    interface Effect<T> {
        T run() throws Exception;
    }

    /** Jdbi's transaction handler for the ledger's handles, refusing a handler's commit and rollback. */
    static final class Transactions extends DelegatingTransactionHandler {
        Transactions(TransactionHandler delegate) {
            super(delegate);
        }

        @Override
        public TransactionHandler specialize(Handle handle) throws SQLException {
            return new Transactions(getDelegate().specialize(handle));
        }

        @Override
        public void commit(Handle handle) {
            refuseWhileEffectRuns("commit");
            super.commit(handle);
        }

        @Override
        public void rollback(Handle handle) {
            refuseWhileEffectRuns("rollback");
            super.rollback(handle);
        }

        private static void refuseWhileEffectRuns(String call) {
            if (EFFECT_RUNNING.get()) {
                throw new IllegalStateException(refusal(call));
            }
        }
    }

    private record GuardedConnection(Connection connection) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (EFFECT_RUNNING.get() && endsTheTransaction(method, args)) {
                throw new SQLException(refusal(method.getName()));
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
