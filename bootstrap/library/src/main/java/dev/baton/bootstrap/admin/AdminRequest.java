package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpExchange;
import dev.baton.bootstrap.json.Json;
import dev.baton.bootstrap.json.JsonCodec;
import dev.baton.bootstrap.json.JsonException;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * One admin HTTP request and its answer: the path's parameters (as the route matched them), the query string, the
 * JSON body, and the response. Bodies are read up to {@link #MAX_BODY} bytes.
 */
public final class AdminRequest {
    static final int MAX_BODY = 1 << 20;

    private final HttpExchange exchange;
    private final List<String> pathParams;
    private final Optional<AdminAccess.User> user;
    private Map<String, String> query; // parsed on first use, so that a malformed one fails as a 400
    private Optional<Object> body = Optional.empty(); // as read, for the audit trail's summary
    private OptionalLong affected = OptionalLong.empty();

    AdminRequest(HttpExchange exchange, List<String> pathParams, Optional<AdminAccess.User> user) {
        this.exchange = exchange;
        this.pathParams = List.copyOf(pathParams);
        this.user = user;
    }

    public String method() {
        return exchange.getRequestMethod();
    }

    public String path() {
        return exchange.getRequestURI().getPath();
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(exchange.getRequestHeaders().getFirst(name));
    }

    /** The client's IP address as this server sees it: a reverse proxy's, behind one. */
    public String client() {
        return exchange.getRemoteAddress().getAddress().getHostAddress();
    }

    /** Who sent the request, as {@link AdminAccess} authenticated them: empty without passwords or on open paths. */
    public Optional<AdminAccess.User> user() {
        return user;
    }

    /** The {@code index}th {@code {}} of the route's pattern. */
    public String pathParam(int index) {
        return pathParams.get(index);
    }

    /** The queue named by the path's first parameter. @throws dev.baton.domain.InvalidValueException if invalid */
    public QueueName queue() {
        return QueueName.of(pathParam(0));
    }

    /** A query-string parameter; an empty one counts as absent. */
    public Optional<String> query(String name) {
        return Optional.ofNullable(query().get(name)).filter(value -> !value.isEmpty());
    }

    /**
     * Refuses a query-string parameter not among {@code known}, so that a misspelt filter never reads as none.
     *
     * @throws AdminHttpException 400 naming the first unknown parameter
     */
    public void onlyQuery(Set<String> known) {
        for (String name : query().keySet()) {
            if (!known.contains(name)) {
                throw AdminHttpException.badRequest("unknown parameter '" + name + "': use "
                        + String.join(", ", new TreeSet<>(known)));
            }
        }
    }

    /**
     * The JSON body as a plain tree ({@link JsonCodec}).
     *
     * @throws AdminHttpException 400 when it is empty, not JSON or larger than {@link #MAX_BODY}
     */
    public Object jsonBody() throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BODY + 1);
        }
        if (body.length > MAX_BODY) {
            throw AdminHttpException.badRequest("the body is larger than " + MAX_BODY + " bytes");
        }
        String text = new String(body, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            throw AdminHttpException.badRequest("the body must be a JSON object");
        }
        try {
            Object parsed = JsonCodec.onClasspath().parse(text);
            this.body = Optional.ofNullable(parsed);
            return parsed;
        } catch (JsonException e) {
            throw AdminHttpException.badRequest("the body is not valid JSON: " + e.getMessage());
        }
    }

    /** The JSON body as read by {@link #jsonBody}, written compactly; empty when no handler read it. */
    String bodyRead() {
        return body.map(JsonCodec.onClasspath()::write).orElse("");
    }

    /**
     * Tells the audit trail how many jobs, dead letters or queues this change affected; a handler that knows calls it
     * before it answers.
     */
    public void affected(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("a change cannot affect a negative count, got " + count);
        }
        affected = OptionalLong.of(count);
    }

    /** What the handler said it affected ({@link #affected(long)}), if it did. */
    OptionalLong affected() {
        return affected;
    }

    public void respond(int status, Object json) throws IOException {
        respond(status, "application/json", Json.write(json));
    }

    public void respond(int status, String contentType, String body) throws IOException {
        respond(exchange, status, contentType, body);
    }

    /** Answers {@code {"error": message}} with {@code status}. */
    public void fail(int status, String message) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        respond(status, body);
    }

    private Map<String, String> query() {
        if (query == null) {
            query = parseQuery(exchange.getRequestURI().getRawQuery());
        }
        return query;
    }

    HttpExchange exchange() {
        return exchange;
    }

    static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            params.putIfAbsent(name, value);
        }
        return params;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw AdminHttpException.badRequest("malformed query string: " + e.getMessage());
        }
    }
}
