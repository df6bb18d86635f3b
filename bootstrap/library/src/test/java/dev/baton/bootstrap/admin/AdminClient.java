package dev.baton.bootstrap.admin;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** The JDK's HTTP client against a started admin server, as one user (or none); keeps every response body. */
final class AdminClient {
    private final HttpClient http = HttpClient.newHttpClient();
    private final InetSocketAddress address;
    private final Optional<String> authorization;
    private final List<String> bodies;

    private AdminClient(InetSocketAddress address, Optional<String> authorization, List<String> bodies) {
        this.address = address;
        this.authorization = authorization;
        this.bodies = bodies;
    }

    static AdminClient anonymous(InetSocketAddress address) {
        return new AdminClient(address, Optional.empty(), new ArrayList<>());
    }

    /** The same server as {@code user} with {@code password}; responses kept with this client's. */
    AdminClient as(String user, String password) {
        return new AdminClient(address, Optional.of("Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + password).getBytes(StandardCharsets.UTF_8))), bodies);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path).GET());
    }

    /** A GET with one more header ({@code Cookie}, say). */
    HttpResponse<String> get(String path, String header, String value) throws IOException, InterruptedException {
        return send(request(path).header(header, value).GET());
    }

    /** A JSON POST, as the dashboard's pages send it. */
    HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> post(String path, String json, String header, String value)
            throws IOException, InterruptedException {
        return send(request(path).header("Content-Type", "application/json").header(header, value)
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> postAs(String path, String contentType, String json)
            throws IOException, InterruptedException {
        return send(request(path).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Every response body (and header) this client and those made by {@link #as} received. */
    List<String> received() {
        return List.copyOf(bodies);
    }

    String origin() {
        return "http://127.0.0.1:" + address.getPort();
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(origin() + path));
        authorization.ifPresent(value -> builder.header("Authorization", value));
        return builder;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        synchronized (bodies) {
            bodies.add(response.headers().map() + " " + response.body());
        }
        return response;
    }
}
