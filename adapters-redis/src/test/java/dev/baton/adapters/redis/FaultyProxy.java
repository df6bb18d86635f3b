package dev.baton.adapters.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy in front of Redis that can lose replies and drop connections: the failure in which a command ran on
 * the server but its client never heard so.
 */
final class FaultyProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int upstreamPort;
    private final AtomicBoolean swallowReplies = new AtomicBoolean();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    FaultyProxy(int upstreamPort) {
        this.upstreamPort = upstreamPort;
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        acceptor = new Thread(this::accept, "faulty-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String uri() {
        return "redis://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on, replies from Redis are thrown away (commands still reach it). */
    void swallowReplies(boolean swallow) {
        swallowReplies.set(swallow);
    }

    /** Closes every proxied connection, as a network failure would. */
    void dropConnections() {
        sockets.forEach(FaultyProxy::closeQuietly);
        sockets.clear();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream, false);
                pump(upstream, client, true);
            } catch (IOException e) {
                // closed, or the upstream refused: the client sees its connection fail
            }
        }
    }

    private void pump(Socket from, Socket to, boolean replies) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (!(replies && swallowReplies.get())) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // a side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "faulty-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        dropConnections();
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
