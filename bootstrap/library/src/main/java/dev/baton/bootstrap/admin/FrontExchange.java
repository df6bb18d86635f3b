package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import dev.baton.bootstrap.json.Json;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One request on an {@link HttpFront} connection and its answer, behind the JDK's {@link HttpExchange}, so that the
 * handlers ({@link AdminRequest}, {@link StaticFiles}, {@link EventStream}) do not depend on which server runs them.
 * One answer per connection: every answer says {@code Connection: close} and the connection closes after it. The
 * body is read up to its {@code Content-Length} (no chunks), within the body timeout from its first read; each write
 * of the answer has the write timeout. A length of 0 in {@link #sendResponseHeaders} is an answer of unknown length
 * (an event stream), ended by the close.
 */
final class FrontExchange extends HttpExchange {
    private static final int WRITE_SLICE = 64 * 1024;
    private static final int BUFFER = 8 * 1024;
    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(100, "Continue"),
            Map.entry(200, "OK"), Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"),
            Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"),
            Map.entry(408, "Request Timeout"), Map.entry(411, "Length Required"),
            Map.entry(413, "Content Too Large"), Map.entry(415, "Unsupported Media Type"),
            Map.entry(429, "Too Many Requests"), Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(500, "Internal Server Error"), Map.entry(503, "Service Unavailable"));

    private final Connection connection;
    private final RequestHead head;
    private final HttpFront.Limits limits;
    private final Body body;
    private final OutputStream out;
    private final Headers responseHeaders = new Headers();
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private int status = -1;

    /** @param early the body's bytes that came with the head */
    FrontExchange(Connection connection, RequestHead head, ByteBuffer early, long bodyLength, HttpFront.Limits limits) {
        this.connection = connection;
        this.head = head;
        this.limits = limits;
        this.body = new Body(early, bodyLength);
        this.out = new BufferedOutputStream(new Answer(), BUFFER);
    }

    /** A whole answer of {@code status} with {@code {"error": message}}, for a request no handler will see. */
    static ByteBuffer refusal(int status, String message) {
        byte[] json = Json.write(Map.of("error", message)).getBytes(StandardCharsets.UTF_8);
        Headers headers = new Headers();
        headers.set("Content-Type", "application/json");
        headers.set("Cache-Control", "no-store");
        headers.set("X-Content-Type-Options", "nosniff");
        SecurityHeaders.addTo(headers); // the transport's own refusals too
        headers.set("Content-Length", String.valueOf(json.length));
        byte[] start = startOfAnswer(status, headers);
        return ByteBuffer.allocate(start.length + json.length).put(start).put(json).flip();
    }

    @Override
    public Headers getRequestHeaders() {
        return head.headers();
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return head.target();
    }

    @Override
    public String getRequestMethod() {
        return head.method();
    }

    /** @throws UnsupportedOperationException always: the front has one handler and no contexts */
    @Override
    public HttpContext getHttpContext() {
        throw new UnsupportedOperationException("the admin server's front has no HTTP contexts");
    }

    @Override
    public InputStream getRequestBody() {
        return body;
    }

    @Override
    public OutputStream getResponseBody() {
        return out;
    }

    /** @param length the body's length; 0 when unknown (ended by the close), -1 when there is none */
    @Override
    public void sendResponseHeaders(int code, long length) throws IOException {
        if (status >= 0) {
            throw new IOException("the answer's headers were sent already");
        }
        status = code;
        if (length > 0) {
            responseHeaders.set("Content-Length", String.valueOf(length));
        } else if (length < 0 && !getRequestMethod().equals("HEAD")) {
            responseHeaders.set("Content-Length", "0");
        }
        out.write(startOfAnswer(code, responseHeaders));
        if (length == 0) {
            out.flush();
        }
    }

    /** Whether {@link #sendResponseHeaders} was called. */
    boolean answered() {
        return status >= 0;
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return connection.client();
    }

    @Override
    public int getResponseCode() {
        return status;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        try {
            return (InetSocketAddress) connection.channel().getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public String getProtocol() {
        return head.protocol();
    }

    @Override
    public Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
    }

    /** @throws UnsupportedOperationException always: no filters wrap the streams */
    @Override
    public void setStreams(InputStream in, OutputStream outStream) {
        throw new UnsupportedOperationException("the admin server's front has no filters");
    }

    /** Null: {@link AdminAccess} authenticates, not the server. */
    @Override
    public HttpPrincipal getPrincipal() {
        return null;
    }

    /**
     * Ends the answer and the connection: sends what is buffered, reads what is left of the body (so that closing
     * does not reset the connection before the client reads the answer), then closes.
     */
    @Override
    public void close() {
        try {
            out.flush();
            connection.channel().shutdownOutput();
            body.drain();
        } catch (IOException e) {
            // the client went away: closing is all that is left
        } finally {
            connection.close();
        }
    }

    private static byte[] startOfAnswer(int status, Headers headers) {
        StringBuilder text = new StringBuilder("HTTP/1.1 ").append(status).append(' ')
                .append(REASONS.getOrDefault(status, "")).append("\r\n");
        headers.set("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)));
        headers.set("Connection", "close");
        headers.forEach((name, values) -> values.forEach(value ->
                text.append(name).append(": ").append(value).append("\r\n")));
        return text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private long deadline(Duration timeout) {
        return System.nanoTime() + timeout.toNanos();
    }

    /**
     * The request's body: the bytes that came with the head, then the socket's, up to the length. Asks for them with
     * {@code 100 Continue} when the client waits for that; all must arrive within the body timeout of the first read.
     */
    private final class Body extends InputStream {
        private final ByteBuffer early;
        private long remaining;
        private long until;
        private boolean reading;

        Body(ByteBuffer early, long length) {
            this.early = early;
            this.remaining = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            if (remaining == 0) {
                return -1;
            }
            if (length == 0) {
                return 0;
            }
            ByteBuffer target = ByteBuffer.wrap(into, offset, (int) Math.min(length, remaining));
            int count;
            if (early.hasRemaining()) {
                count = Math.min(early.remaining(), target.remaining());
                target.put(early.slice().limit(count));
                early.position(early.position() + count);
            } else {
                startReading();
                count = connection.read(target, until);
                if (count < 0) {
                    throw new IOException("the client closed the connection before the end of its body");
                }
            }
            remaining -= count;
            return count;
        }

        /** Reads what is left, unless the client still waits for a {@code 100 Continue} it will not get now. */
        void drain() throws IOException {
            if (reading || !expectsContinue()) {
                skip(Long.MAX_VALUE);
            }
        }

        private boolean expectsContinue() {
            return "100-continue".equalsIgnoreCase(head.headers().getFirst("Expect"));
        }

        private void startReading() throws IOException {
            if (reading) {
                return;
            }
            reading = true;
            until = deadline(limits.bodyTimeout());
            if (expectsContinue() && status < 0) {
                connection.write(ByteBuffer.wrap("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII)),
                        deadline(limits.writeTimeout()));
            }
        }
    }

    /** The socket's side of the answer: writes of at most a slice each, each with the write timeout. */
    private final class Answer extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] from, int offset, int length) throws IOException {
            for (int start = offset; start < offset + length; start += WRITE_SLICE) {
                int slice = Math.min(WRITE_SLICE, offset + length - start);
                connection.write(ByteBuffer.wrap(from, start, slice), deadline(limits.writeTimeout()));
            }
        }

        /** Closing the answer's stream ends the exchange, as the JDK's server does. */
        @Override
        public void close() {
            FrontExchange.this.close();
        }
    }
}
