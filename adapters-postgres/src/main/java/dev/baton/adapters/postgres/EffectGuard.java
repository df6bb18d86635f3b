package dev.baton.adapters.postgres;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.jdbi.v3.core.transaction.DelegatingTransactionHandler;
import org.jdbi.v3.core.transaction.TransactionHandler;

/**
 * Keeps a handler from ending the ledger's transaction while its effect runs on the thread: Jdbi's
 * {@code Handle.commit()}/{@code rollback()} and, on the JDBC connection a handler unwraps, {@code commit},
 * {@code rollback} (but to a savepoint), {@code setAutoCommit}, {@code close} and {@code abort} are refused. A
 * handler's own commit would commit its writes without the job's completion, and the job's retry would write them
 * again; refused, it fails the job and nothing commits. Only these calls are checked: the ledger's own statements and
 * the handler's other calls go to the connection directly. {@code COMMIT} or {@code ROLLBACK} sent as SQL cannot be
 * refused; the guard notes whether the effect sent statements at all ({@link Run}), so that the ledger can tell a
 * transaction the handler ended from one it never began.
 */
final class EffectGuard {
    /** The effect running on this thread, if any. */
    private static final ThreadLocal<Run> RUNNING = new ThreadLocal<>();
    private static final Set<String> ENDING_TRANSACTION = Set.of("commit", "setAutoCommit", "close", "abort");
    private static final Set<String> MAKING_STATEMENTS = Set.of("createStatement", "prepareStatement", "prepareCall");

    private EffectGuard() {
    }

    /** Runs a handler's effect: until it returns, this thread cannot end the ledger's transaction. */
    static <T> T whileEffectRuns(Run run, Effect<T> effect) throws Exception {
        RUNNING.set(run);
        try {
            return effect.run();
        } finally {
            RUNNING.remove();
        }
    }

    /** Notes that the effect running on this thread, if any, sends a statement. */
    static void statementSent() {
        Run run = RUNNING.get();
        if (run != null) {
            run.sentStatements = true;
        }
    }

    private static boolean effectRunning() {
        return RUNNING.get() != null;
    }

    /** The connection as a handler gets it. */
    static Connection guarded(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new GuardedConnection(connection));
    }

    /**
     * One run of an effect, as far as the guard sees it: whether it sent statements through Jdbi (see
     * {@link #COUNTING}) or the guarded connection; not through the raw connection of its {@code Handle}.
     */
    static final class Run {
        private boolean sentStatements;

        boolean sentStatements() {
            return sentStatements;
        }
    }

    /** Installed on the ledger's Jdbi: notes each statement an effect sends through its {@code Handle}. */
    static final StatementCustomizer COUNTING = new StatementCustomizer() {
        @Override
        public void beforeExecution(PreparedStatement statement, StatementContext context) {
            statementSent();
        }
    };

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
            if (effectRunning()) {
                throw new IllegalStateException(refusal(call));
            }
        }
    }

    private record GuardedConnection(Connection connection) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (effectRunning() && endsTheTransaction(method, args)) {
                throw new SQLException(refusal(method.getName()));
            }
            Object result = invokeOn(connection, method, args);
            if (MAKING_STATEMENTS.contains(method.getName())) {
                return Proxy.newProxyInstance(Statement.class.getClassLoader(),
                        new Class<?>[] {method.getReturnType()}, new CountedStatement((Statement) result));
            }
            return result;
        }

        private static boolean endsTheTransaction(Method method, Object[] args) {
            return ENDING_TRANSACTION.contains(method.getName())
                    || method.getName().equals("rollback") && (args == null || args.length == 0);
        }
    }

    /** A statement of the guarded connection: notes each execution. */
    private record CountedStatement(Statement statement) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().startsWith("execute")) {
                statementSent();
            }
            return invokeOn(statement, method, args);
        }
    }

    private static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
