package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin server's HTTP/1.1 transport: one thread accepts connections and reads every request's head without
 * blocking, so an idle or slow client holds no thread and is dropped at its deadline; complete requests go to one of
 * two pools, one for the probes' paths ({@code /health/*}, {@code /metrics}) and one for the rest, so slow pages never
 * delay a probe. It replaces the JDK's {@code HttpServer}, which reads a head on a pool thread with no timeout (four
 * idle sockets held all four threads), and whose timeouts are JVM-wide system properties a library must not set.
 *
 * <p>The rules, each answered with {@code {"error": ...}} and the connection closed
 * (docs/OPERATIONS.md#limits-of-the-admin-server):
 * <ul>
 * <li>the head (request line and headers) must arrive within {@link Limits#headTimeout()} of the connection, else
 *     {@code 408}; a connection that sent nothing is closed silently;</li>
 * <li>a head larger than {@link Limits#maxHeadBytes()} is {@code 431}, a malformed one {@code 400} ({@link
 *     RequestHead}), a body larger than {@link AdminRequest#MAX_BODY} {@code 413} before it is read;</li>
 * <li>the body must arrive within {@link Limits#bodyTimeout()} of its first read, and a client must take each part of
 *     the answer within {@link Limits#writeTimeout()} ({@link FrontExchange}), else the connection is closed;</li>
 * <li>at most {@link Limits#connectionsPerAddress()} connections from one client address ({@code 503} beyond) and
 *     {@link Limits#maxConnections()} in all (closed at once beyond);</li>
 * <li>a pool's full queue is {@code 503}.</li>
 * </ul>
 * One answer per connection ({@code Connection: close}): an admin server needs no keep-alive, and each request then
 * passes every rule above.
 */
final class HttpFront implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpFront.class);
    /** How long a refused connection is read (and what it sends dropped) so the client sees the answer. */
    private static final Duration LINGER = Duration.ofSeconds(2);
    /** How often the deadlines are checked. */
    private static final long TICK_MILLIS = 250;

    /** The front's deadlines and bounds; {@link #DEFAULTS} are the admin server's. */
    record Limits(Duration headTimeout, Duration bodyTimeout, Duration writeTimeout, int maxHeadBytes,
                  int connectionsPerAddress, int maxConnections, int pageThreads, int probeThreads, int queued) {
        static final Limits DEFAULTS = new Limits(Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofSeconds(10), 16 * 1024, 64, 512, 4, 2, 64);
    }

    private final ServerSocketChannel server;
    private final Selector selector;
    private final Limits limits;
    private final HttpHandler handler;
    private final Predicate<String> isProbe;
    private final ThreadPoolExecutor pages;
    private final ThreadPoolExecutor probes;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final Map<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
    private final Thread acceptor;

    private HttpFront(ServerSocketChannel server, Selector selector, Limits limits, HttpHandler handler,
                      Predicate<String> isProbe) {
        this.server = server;
        this.selector = selector;
        this.limits = limits;
        this.handler = handler;
        this.isProbe = isProbe;
        this.pages = pool("baton-admin-http", limits.pageThreads(), limits.queued());
        this.probes = pool("baton-admin-probes", limits.probeThreads(), limits.queued());
        this.acceptor = new Thread(this::run, "baton-admin-accept");
        acceptor.setDaemon(true);
    }

    /**
     * Listens on {@code address} and hands each complete request to {@code handler}, on the probes' pool when
     * {@code isProbe} holds for its path.
     */
    static HttpFront start(InetSocketAddress address, Limits limits, HttpHandler handler, Predicate<String> isProbe)
            throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        Selector selector = Selector.open();
        try {
            server.socket().bind(address);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            server.close();
            selector.close();
            throw e;
        }
        HttpFront front = new HttpFront(server, selector, limits, handler, isProbe);
        front.acceptor.start();
        return front;
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.socket().getLocalSocketAddress();
    }

    private void run() {
        while (server.isOpen()) {
            try {
                selector.select(TICK_MILLIS);
                List<Dispatch> complete = new ArrayList<>();
                for (Iterator<SelectionKey> keys = selector.selectedKeys().iterator(); keys.hasNext(); ) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    ready(key, complete);
                }
                dispatch(complete);
                enforceDeadlines();
            } catch (ClosedSelectorException e) {
                return;
            } catch (IOException | RuntimeException e) {
                LOG.warn("admin http front: {}", e.toString());
            }
        }
    }

    private void ready(SelectionKey key, List<Dispatch> complete) throws IOException {
        try {
            if (key.isAcceptable()) {
                accept();
            } else if (key.isReadable()) {
                read((Connection) key.attachment(), key, complete).ifPresent(complete::add);
            }
        } catch (CancelledKeyException e) {
            // its connection was closed meanwhile
        }
    }

    private void accept() throws IOException {
        SocketChannel channel = server.accept();
        if (channel == null) {
            return;
        }
        if (open.size() >= limits.maxConnections()) {
            channel.close();
            return;
        }
        InetSocketAddress client;
        try {
            client = (InetSocketAddress) channel.getRemoteAddress();
            channel.configureBlocking(false);
        } catch (IOException e) {
            channel.close(); // the client is gone already
            return;
        }
        Connection connection = new Connection(channel, client, limits.maxHeadBytes(), this::forget);
        open.add(connection);
        int fromClient = perAddress.merge(client.getAddress(), 1, Integer::sum);
        connection.waitUntil(System.nanoTime() + limits.headTimeout().toNanos());
        channel.register(selector, SelectionKey.OP_READ, connection);
        if (fromClient > limits.connectionsPerAddress()) {
            refuse(connection, 503, "too many connections from " + client.getAddress().getHostAddress()
                    + " (at most " + limits.connectionsPerAddress() + "); close some and try again");
        }
    }

    /** A complete request, ready for a pool. */
    private record Dispatch(Connection connection, RequestHead head, ByteBuffer early, long bodyLength) {
    }

    /**
     * Reads what came: drops it while lingering; else adds it to the head and, once that is complete, checks it, and
     * its pool's room, counting the requests of this round not handed over yet.
     */
    private Optional<Dispatch> read(Connection connection, SelectionKey key, List<Dispatch> complete) {
        ByteBuffer head = connection.head();
        if (connection.stage() == Connection.Stage.LINGERING) {
            head.clear();
        }
        int count;
        try {
            count = connection.channel().read(head);
        } catch (IOException e) {
            count = -1;
        }
        if (count < 0) {
            connection.close();
            return Optional.empty();
        }
        if (connection.stage() == Connection.Stage.LINGERING) {
            return Optional.empty();
        }
        int end = RequestHead.end(head, connection.scanned());
        if (end < 0) {
            connection.scannedTo(head.position());
            if (!head.hasRemaining()) {
                refuse(connection, 431, "the request's head is larger than " + limits.maxHeadBytes() + " bytes");
            }
            return Optional.empty();
        }
        try {
            RequestHead request = RequestHead.parse(head, end);
            long bodyLength = request.bodyLength(AdminRequest.MAX_BODY);
            ThreadPoolExecutor pool = poolFor(request);
            long waiting = complete.stream().filter(other -> poolFor(other.head()) == pool).count();
            if (pool.getQueue().remainingCapacity() <= waiting) {
                throw new AdminHttpException(503, "the admin server is busy; try again");
            }
            key.cancel();
            connection.clearDeadline();
            connection.moveTo(Connection.Stage.HANDLED);
            ByteBuffer early = ByteBuffer.wrap(Arrays.copyOfRange(head.array(), end, head.position()));
            return Optional.of(new Dispatch(connection, request, early, bodyLength));
        } catch (AdminHttpException e) {
            refuse(connection, e.status(), e.getMessage());
            return Optional.empty();
        }
    }

    /** Hands complete requests to their pools, in blocking mode once their keys are gone from the selector. */
    private void dispatch(List<Dispatch> complete) {
        for (Dispatch request : complete) {
            Connection connection = request.connection();
            try {
                if (connection.channel().isRegistered()) {
                    selector.selectNow(); // its key was cancelled: this removes it
                }
                connection.channel().configureBlocking(true);
            } catch (IOException e) {
                connection.close();
                continue;
            }
            FrontExchange exchange = new FrontExchange(connection, request.head(), request.early(),
                    request.bodyLength(), limits);
            try {
                poolFor(request.head()).execute(() -> serve(exchange));
            } catch (RejectedExecutionException e) {
                connection.close(); // the front is closing
            }
        }
    }

    private void serve(FrontExchange exchange) {
        try {
            handler.handle(exchange);
            if (!exchange.answered()) {
                exchange.close();
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("admin http connection ended: {}", e.toString());
            exchange.close();
        }
    }

    /**
     * Answers from this thread (the answer is small: the socket takes it at once) and then lingers: what the client
     * still sends is read and dropped until it closes or {@link #LINGER} ends, so that closing does not reset the
     * connection before the client has read the answer.
     */
    private void refuse(Connection connection, int status, String message) {
        try {
            connection.channel().write(FrontExchange.refusal(status, message));
            connection.channel().shutdownOutput();
        } catch (IOException e) {
            connection.close();
            return;
        }
        connection.moveTo(Connection.Stage.LINGERING);
        connection.waitUntil(System.nanoTime() + LINGER.toNanos());
    }

    private void enforceDeadlines() {
        long now = System.nanoTime();
        for (Connection connection : open) {
            if (!connection.isOverdue(now)) {
                continue;
            }
            if (connection.stage() == Connection.Stage.HEAD && connection.head().position() > 0) {
                refuse(connection, 408, "the request's head did not arrive within "
                        + limits.headTimeout().toSeconds() + " s");
            } else {
                connection.expire();
            }
        }
    }

    private ThreadPoolExecutor poolFor(RequestHead request) {
        return isProbe.test(request.target().getPath()) ? probes : pages;
    }

    private void forget(Connection connection) {
        open.remove(connection);
        perAddress.computeIfPresent(connection.client().getAddress(), (address, count) -> count > 1 ? count - 1 : null);
    }

    private static ThreadPoolExecutor pool(String name, int threads, int queued) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queued),
                runnable -> {
                    Thread thread = new Thread(runnable, name);
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /** Stops accepting, closes every connection (their handlers' sockets too) and the pools. */
    @Override
    public void close() {
        try {
            server.close();
            selector.close();
        } catch (IOException e) {
            LOG.debug("admin http front: closing: {}", e.toString());
        }
        open.forEach(Connection::close);
        pages.shutdownNow();
        probes.shutdownNow();
    }
}
