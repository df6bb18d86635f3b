package dev.baton.bootstrap.admin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The admin server's routes: a method and a path pattern each, where {@code {}} matches one path segment and a
 * trailing {@code {*}} the rest of the path. Every {@code POST} is a change (access control treats it so), but those
 * that change only the caller's own session ({@link #postForAnyUser}).
 */
public final class Routes {
    private final List<Route> routes = new ArrayList<>();

    /** What answers a matched request. */
    @FunctionalInterface
    public interface Handler {
        void handle(AdminRequest request) throws IOException;
    }

    /** A group of endpoints that adds its routes. */
    @FunctionalInterface
    public interface Group {
        void addTo(Routes routes);
    }

    /**
     * @param template the pattern as the group wrote it ({@code /api/queues/{}/pause})
     * @param isChange whether the route changes Baton's state, which access control grants the operator alone
     */
    record Route(String method, String template, Pattern pattern, Handler handler, boolean isChange) {
    }

    /** A matched route and the path's parameters. */
    record Match(Route route, List<String> params) {
    }

    /** Serves {@code GET} (and {@code HEAD}) of {@code pattern}. */
    public Routes get(String pattern, Handler handler) {
        return add("GET", pattern, handler, false);
    }

    /** Serves {@code POST} of {@code pattern}: a change. */
    public Routes post(String pattern, Handler handler) {
        return add("POST", pattern, handler, true);
    }

    /** Serves {@code POST} of {@code pattern} that changes only the caller's session: its handler checks who asks. */
    Routes postForAnyUser(String pattern, Handler handler) {
        return add("POST", pattern, handler, false);
    }

    private Routes add(String method, String pattern, Handler handler, boolean change) {
        String regex = Pattern.quote(pattern).replace("{*}", "\\E(.+)\\Q").replace("{}", "\\E([^/]+)\\Q");
        routes.add(new Route(method, pattern, Pattern.compile(regex), handler, change));
        return this;
    }

    /**
     * The route of {@code method} and {@code path}.
     *
     * @throws AdminHttpException 404 when no route has the path, 405 when routes have it for other methods only
     */
    Match match(String method, String path) {
        String asked = method.equals("HEAD") ? "GET" : method;
        List<String> allowed = new ArrayList<>();
        for (Route route : routes) {
            Matcher matcher = route.pattern().matcher(path);
            if (!matcher.matches()) {
                continue;
            }
            if (route.method().equals(asked)) {
                List<String> params = new ArrayList<>();
                for (int group = 1; group <= matcher.groupCount(); group++) {
                    params.add(matcher.group(group));
                }
                return new Match(route, params);
            }
            allowed.add(route.method());
        }
        if (allowed.isEmpty()) {
            throw AdminHttpException.notFound("no such path: " + path);
        }
        throw new AdminHttpException(405, "use " + String.join(" or ", allowed) + " for " + path);
    }
}
