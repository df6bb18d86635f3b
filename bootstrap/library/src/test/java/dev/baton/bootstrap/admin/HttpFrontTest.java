package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The admin server's transport with a handler of its own: {@code /slow} waits until released, {@code /flood} writes
 * until the socket fails, anything else echoes its method, path and body. Short timeouts, so a deadline test waits a
 * second, not the defaults' seconds.
 */
class HttpFrontTest {
    private static final Duration SHORT = Duration.ofSeconds(1);
    private static final HttpFront.Limits LIMITS = new HttpFront.Limits(SHORT, SHORT, SHORT, 1024, 64, 512, 2, 1, 4);

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger waiting = new AtomicInteger();
    private final CompletableFuture<IOException> handlerFailure = new CompletableFuture<>();
    private final List<RawConnection> connections = new ArrayList<>();
    private HttpFront front;

    @AfterEach
    void stop() throws IOException {
        release.countDown();
        for (RawConnection connection : connections) {
            connection.close();
        }
        front.close();
    }

    @Nested
    class BadInput {
        @Test
        void aHeadLargerThanTheLimitIs431() throws Exception {
            start(LIMITS);

            String answer = connect().send("GET / HTTP/1.1\r\nX-Long: " + "a".repeat(2000) + "\r\n\r\n").rest();

            assertThat(answer).startsWith("HTTP/1.1 431 ").contains("larger than 1024 bytes");
        }

        @Test
        void malformedHeadsAre400AndNamedInTheAnswer() throws Exception {
            start(LIMITS);

            assertThat(connect().send("NONSENSE\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ")
                    .contains("malformed request line");
            assertThat(connect().send("GET http://evil/ HTTP/1.1\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ");
            assertThat(connect().send("GET / HTTP/2.0\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ");
            assertThat(connect().send("GET /a b HTTP/1.1\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ");
            assertThat(connect().send("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ")
                    .contains("malformed header line 1");
            assertThat(connect().send("GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n").rest())
                    .startsWith("HTTP/1.1 400 ");
            assertThat(connect().send("GET / HTTP/1.1\r\nX: a\u0000b\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ");
            assertThat(connect().send("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ");
            assertThat(connect().send("GET /%zz HTTP/1.1\r\n\r\n").rest()).startsWith("HTTP/1.1 400 ")
                    .contains("malformed request target");
        }

        @Test
        void bodiesInChunksOrOverTheLimitAreRefusedUnread() throws Exception {
            start(LIMITS);

            assertThat(connect().send(RawConnection.head("POST", "/echo", "Transfer-Encoding: chunked")).rest())
                    .startsWith("HTTP/1.1 411 ");
            assertThat(connect().send(RawConnection.head("POST", "/echo",
                    "Content-Length: " + (AdminRequest.MAX_BODY + 1))).rest())
                    .startsWith("HTTP/1.1 413 ").contains("larger than " + AdminRequest.MAX_BODY);
            assertThat(connect().send(RawConnection.head("POST", "/echo", "Content-Length: -1")).rest())
                    .startsWith("HTTP/1.1 400 ");
        }
    }

    @Nested
    class Deadlines {
        @Test
        void aHeadThatStopsHalfwayIs408() throws Exception {
            start(LIMITS);

            assertThat(connect().send("GET / HTTP/1.1\r\nHost: x\r\n").rest()).startsWith("HTTP/1.1 408 ")
                    .contains("did not arrive within 1 s");
            assertThat(connect().rest()).as("a connection that sent nothing is closed silently").isEmpty();
        }

        @Test
        void aBodyThatStopsHalfwayEndsTheConnection() throws Exception {
            start(LIMITS);

            String answer = connect().send(RawConnection.head("POST", "/echo", "Content-Length: 10") + "abc").rest();

            assertThat(handlerFailure.get(RawConnection.PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(SocketTimeoutException.class);
            assertThat(answer).isEmpty();
        }

        @Test
        void aClientThatStopsReadingIsDropped() throws Exception {
            start(LIMITS);

            connect().send(RawConnection.head("GET", "/flood"));

            assertThat(handlerFailure.get(RawConnection.PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(SocketTimeoutException.class);
        }
    }

    @Test
    void probesAnswerWhileEveryPageThreadIsBusy() throws Exception {
        start(LIMITS);
        List<RawConnection> slow = new ArrayList<>();
        for (int i = 0; i < LIMITS.pageThreads(); i++) {
            slow.add(connect().send(RawConnection.head("GET", "/slow")));
        }
        await().atMost(RawConnection.PATIENCE).until(() -> waiting.get() == LIMITS.pageThreads());

        assertThat(connect().send(RawConnection.head("GET", "/health/live")).rest())
                .startsWith("HTTP/1.1 200 OK").endsWith("GET /health/live ");
        release.countDown();
        for (RawConnection connection : slow) {
            assertThat(connection.rest()).startsWith("HTTP/1.1 200 OK").endsWith("GET /slow ");
        }
    }

    @Test
    void aFullQueueOfPagesIs503() throws Exception {
        start(LIMITS);
        for (int i = 0; i < LIMITS.pageThreads(); i++) {
            connect().send(RawConnection.head("GET", "/slow"));
        }
        await().atMost(RawConnection.PATIENCE).until(() -> waiting.get() == LIMITS.pageThreads());
        List<RawConnection> queued = new ArrayList<>();
        for (int i = 0; i <= LIMITS.queued(); i++) {
            queued.add(connect().send(RawConnection.head("GET", "/slow")));
        }
        // one more than the queue holds: one of them is answered at once
        await().atMost(RawConnection.PATIENCE).until(() -> queued.stream().anyMatch(RawConnection::hasAnswer));
        release.countDown();

        List<String> answers = new ArrayList<>();
        for (RawConnection connection : queued) {
            answers.add(connection.rest());
        }
        assertThat(answers).filteredOn(answer -> answer.startsWith("HTTP/1.1 503 ")).singleElement()
                .asString().contains("busy");
        assertThat(answers).filteredOn(answer -> answer.startsWith("HTTP/1.1 200 ")).hasSize(LIMITS.queued());
    }

    @Test
    void connectionsOverThePerAddressLimitAre503() throws Exception {
        start(new HttpFront.Limits(RawConnection.PATIENCE, SHORT, SHORT, 1024, 2, 512, 2, 1, 4));
        connect();
        connect();

        assertThat(connect().rest()).startsWith("HTTP/1.1 503 ").contains("too many connections from 127.0.0.1");
    }

    @Test
    void aBodyIsReadAfter100ContinueAndEchoed() throws Exception {
        start(LIMITS);
        RawConnection connection = connect().send(RawConnection.head("POST", "/echo", "Content-Length: 2",
                "Expect: 100-continue"));

        assertThat(connection.statusLine()).isEqualTo("HTTP/1.1 100 Continue");
        assertThat(connection.send("{}").rest()).contains("Connection: close").endsWith("POST /echo {}");
    }

    private void start(HttpFront.Limits limits) throws IOException {
        front = HttpFront.start(new InetSocketAddress("127.0.0.1", 0), limits, this::handle,
                path -> path.startsWith("/health/"));
    }

    private RawConnection connect() {
        RawConnection connection = RawConnection.to(front.address());
        connections.add(connection);
        return connection;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        try {
            if (path.equals("/flood")) {
                flood(exchange);
                return;
            }
            if (path.equals("/slow")) {
                waiting.incrementAndGet();
                release.await();
            }
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            byte[] answer = (exchange.getRequestMethod() + " " + path + " " + body).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } catch (IOException e) {
            handlerFailure.complete(e);
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes up to 1 GiB: far more than any socket buffers, so a client that does not read stops it. */
    private static void flood(HttpExchange exchange) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        byte[] chunk = new byte[64 * 1024];
        OutputStream out = exchange.getResponseBody();
        for (int i = 0; i < 16 * 1024; i++) {
            out.write(chunk);
        }
        out.close();
    }
}
