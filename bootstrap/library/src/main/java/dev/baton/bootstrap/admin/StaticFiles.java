package dev.baton.bootstrap.admin;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The dashboard's pages and scripts, read from the classpath: {@code /} is {@code index.html}, {@code
 * /dashboard/<file>} a file of the dashboard's resources, {@code /dashboard/webjars/<path>} a file of a WebJar (the
 * chart library). Names are checked against a strict pattern (letters, digits, {@code .-_/}, no {@code ..} and no
 * empty segment), so no request reaches any other resource; unknown extensions and names are 404. Pages are
 * revalidated on every load ({@code no-cache}); WebJar files carry their version in the path and are cached a day.
 * The chart's WebJar is an optional dependency: without it, the overview's chart area says so. The files' content
 * security policy lets them load only this server's scripts, styles and images.
 */
final class StaticFiles implements Routes.Handler {
    static final String ROOT = "dev/baton/bootstrap/dashboard/";
    private static final String WEBJARS = "META-INF/resources/webjars/";
    /** The chart library the overview loads, from its WebJar ({@code org.webjars.npm:uplot}). */
    static final String CHART_LIBRARY = WEBJARS + "uplot/1.6.30/dist/uPlot.iife.min.js";
    private static final String OVERVIEW = ROOT + "index.html";
    private static final String CHART_AREA = "<div id=\"chart\"></div>";
    static final String NO_CHART_LIBRARY = "No chart: its library, the WebJar org.webjars.npm:uplot, is not on"
            + " Baton's classpath. Add it to see the throughput.";
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]*(/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon");
    /** Everything from this server, nothing inline; added to {@link SecurityHeaders}' {@code frame-ancestors}. */
    private static final String POLICY = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";

    private final ClassLoader loader;
    private final boolean chartLibrary;

    StaticFiles(ClassLoader loader) {
        this.loader = loader;
        this.chartLibrary = loader.getResource(CHART_LIBRARY) != null;
    }

    @Override
    public void handle(AdminRequest request) throws IOException {
        Optional<Resource> resource = resolve(request.path());
        byte[] body = resource.isEmpty() ? null : read(resource.get().name());
        if (body == null) {
            throw AdminHttpException.notFound("no such page: " + request.path());
        }
        if (!chartLibrary && resource.get().name().equals(OVERVIEW)) {
            body = withoutChart(body);
        }
        HttpExchange exchange = request.exchange();
        exchange.getResponseHeaders().set("Content-Type", resource.get().contentType());
        exchange.getResponseHeaders().set("Cache-Control", resource.get().cacheControl());
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        SecurityHeaders.addPolicy(exchange.getResponseHeaders(), POLICY);
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(200, head ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            if (!head) {
                out.write(body);
            }
        }
    }

    /** A classpath resource to serve, with its headers. */
    record Resource(String name, String contentType, String cacheControl) {
    }

    /** The resource a request path names, if it names one that may be served. */
    static Optional<Resource> resolve(String path) {
        String name;
        String cache;
        if (path.equals("/")) {
            name = ROOT + "index.html";
            cache = "no-cache";
        } else if (path.startsWith("/dashboard/webjars/") && safe(path.substring("/dashboard/webjars/".length()))) {
            name = WEBJARS + path.substring("/dashboard/webjars/".length());
            cache = "public, max-age=86400";
        } else if (path.startsWith("/dashboard/") && safe(path.substring("/dashboard/".length()))) {
            name = ROOT + path.substring("/dashboard/".length());
            cache = "no-cache";
        } else {
            return Optional.empty();
        }
        String extension = name.substring(name.lastIndexOf('.') + 1);
        return Optional.ofNullable(TYPES.get(extension)).map(type -> new Resource(name, type, cache));
    }

    /** The overview with the chart area saying why it stays empty (its script skips the chart without uPlot). */
    private static byte[] withoutChart(byte[] overview) {
        String page = new String(overview, StandardCharsets.UTF_8);
        return page.replace(CHART_AREA, "<div id=\"chart\" class=\"message\">" + NO_CHART_LIBRARY + "</div>")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static boolean safe(String relative) {
        return SAFE.matcher(relative).matches() && !relative.contains("..");
    }

    private byte[] read(String name) throws IOException {
        try (InputStream in = loader.getResourceAsStream(name)) {
            return in == null ? null : in.readAllBytes();
        }
    }
}
