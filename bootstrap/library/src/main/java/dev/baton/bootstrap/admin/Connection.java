package dev.baton.bootstrap.admin;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One client's socket, from its accept to its close, in one of three stages: its request's head is being read by
 * {@link HttpFront}'s thread, it is lingering after the front refused it, or it is with a handler. Whatever it waits
 * for (the rest of the head, a read of the body, a write of the answer) has a deadline, which the front's thread
 * checks: a connection past it is refused or closed, and a thread blocked on its socket gets an exception.
 */
final class Connection {
    /** Where a connection is; only the front's thread changes it. */
    enum Stage { HEAD, LINGERING, HANDLED }

    private static final long NO_DEADLINE = Long.MIN_VALUE;

    private final SocketChannel channel;
    private final InetSocketAddress client;
    private final Consumer<Connection> onClose;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ByteBuffer head;
    private volatile long deadline = NO_DEADLINE;
    private volatile boolean expired;
    private Stage stage = Stage.HEAD;
    private int scanned;

    Connection(SocketChannel channel, InetSocketAddress client, int maxHeadBytes, Consumer<Connection> onClose) {
        this.channel = channel;
        this.client = client;
        this.onClose = onClose;
        this.head = ByteBuffer.allocate(maxHeadBytes);
    }

    SocketChannel channel() {
        return channel;
    }

    InetSocketAddress client() {
        return client;
    }

    Stage stage() {
        return stage;
    }

    void moveTo(Stage next) {
        stage = next;
    }

    /** The bytes of the head read so far (the front's thread only). */
    ByteBuffer head() {
        return head;
    }

    /** How far the head has been searched for its end (the front's thread only). */
    int scanned() {
        return scanned;
    }

    void scannedTo(int position) {
        scanned = position;
    }

    /** Sets the deadline of what the connection waits for now, a {@link System#nanoTime()}. */
    void waitUntil(long nanoTime) {
        deadline = nanoTime;
    }

    void clearDeadline() {
        deadline = NO_DEADLINE;
    }

    boolean isOverdue(long now) {
        long until = deadline;
        return until != NO_DEADLINE && now - until > 0;
    }

    /**
     * A blocking read, ended at {@code until} (a {@link System#nanoTime()}) if it has not returned by then.
     *
     * @throws SocketTimeoutException when it was ended so
     */
    int read(ByteBuffer into, long until) throws IOException {
        deadline = until;
        try {
            return channel.read(into);
        } catch (AsynchronousCloseException e) {
            throw expired ? new SocketTimeoutException("the client sent nothing before the deadline") : e;
        } finally {
            deadline = NO_DEADLINE;
        }
    }

    /**
     * A blocking write of all of {@code from}, ended at {@code until} if it has not ended by then.
     *
     * @throws SocketTimeoutException when it was ended so
     */
    void write(ByteBuffer from, long until) throws IOException {
        deadline = until;
        try {
            while (from.hasRemaining()) {
                channel.write(from);
            }
        } catch (AsynchronousCloseException e) {
            throw expired ? new SocketTimeoutException("the client took nothing before the deadline") : e;
        } finally {
            deadline = NO_DEADLINE;
        }
    }

    /** Closes a connection past its deadline; the thread blocked on it gets a {@link SocketTimeoutException}. */
    void expire() {
        expired = true;
        close();
    }

    /** Closes the socket, once; a thread blocked on it gets an exception. */
    void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                channel.close();
            } catch (IOException e) {
                // closed anyway: nothing more to do with it
            }
            onClose.accept(this);
        }
    }
}
