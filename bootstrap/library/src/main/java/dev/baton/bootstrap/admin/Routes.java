package dev.baton.bootstrap.admin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The admin server's routes: a method and a path pattern each, where {@code {}} matches one path segment and a
 * trailing {@code {*}} the rest of the path. Every {@code POST} is a change (access control treats it so).
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

    record Route(String method, Pattern pattern, Handler handler) {
        boolean isChange() {
            return method.equals("POST");
        }
    }

    /** A matched route and the path's parameters. */
    record Match(Route route, List<String> params) {
    }

    /** Serves {@code GET} (and {@code HEAD}) of {@code pattern}. */
    public Routes get(String pattern, Handler handler) {
        return add("GET", pattern, handler);
    }

    /** Serves {@code POST} of {@code pattern}: a change. */
    public Routes post(String pattern, Handler handler) {
        return add("POST", pattern, handler);
    }

    private Routes add(String method, String pattern, Handler handler) {
        String regex = Pattern.quote(pattern).replace("{*}", "\\E(.+)\\Q").replace("{}", "\\E([^/]+)\\Q");
        routes.add(new Route(method, Pattern.compile(regex), handler));
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
