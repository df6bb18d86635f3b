package dev.baton.bootstrap.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A socket to the admin server that sends what a test writes, byte for byte, and reads only what it asks for: an
 * idle client, a slow reader or a malformed request. Reads wait {@link #PATIENCE} at most, so a server that never
 * answers fails the test instead of hanging it.
 */
final class RawConnection implements AutoCloseable {
    static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Socket socket;

    private RawConnection(Socket socket) {
        this.socket = socket;
    }

    static RawConnection to(InetSocketAddress address) {
        try {
            Socket socket = new Socket("127.0.0.1", address.getPort());
            socket.setSoTimeout((int) PATIENCE.toMillis());
            return new RawConnection(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request head of {@code method} and {@code path}, with {@code headers} (each {@code "Name: value"}). */
    static String head(String method, String path, String... headers) {
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    RawConnection send(String text) {
        try {
            socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The response's status line, and nothing more of it. */
    String statusLine() throws IOException {
        return readLine();
    }

    /** The rest of the response, up to the server's close; then closes this side too. */
    String rest() throws IOException {
        try (socket) {
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** Whether some of the answer has come. */
    boolean hasAnswer() {
        try {
            return socket.getInputStream().available() > 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String readLine() throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the server closed the connection after '" + line + "'");
            }
            line.append((char) b);
        }
        return line.toString().strip();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
