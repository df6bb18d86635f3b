package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.bootstrap.testing.HostClasspath;
import java.net.URI;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus registry and the chart's WebJar are optional: a host without them gets a working Baton, a
 * {@code /metrics} that says what to add, and a dashboard whose chart area says what is missing. Each case runs Baton
 * in a class loader whose classpath lacks those jars ({@link HostClasspath}), so a stray reference to them would fail
 * to load there as it would in the host.
 */
class OptionalPartsTest {
    private static final String PROMETHEUS_REGISTRY = "io.micrometer.prometheusmetrics.PrometheusMeterRegistry";
    private static final String[] PROMETHEUS_JARS = {"micrometer-registry-prometheus-", "prometheus-metrics-"};
    private static final String CHART_SCRIPT = "/dashboard/webjars/uplot/1.6.30/dist/uPlot.iife.min.js";

    private final HttpClient http = HttpClient.newHttpClient();

    @Nested
    class WithoutThePrometheusRegistry {
        @Test
        void jobsAreCountedOnAPlainRegistry() throws Exception {
            try (URLClassLoader host = HostClasspath.without(PROMETHEUS_JARS); Host baton = new Host(host)) {
                assertThatThrownBy(() -> host.loadClass(PROMETHEUS_REGISTRY))
                        .isInstanceOf(ClassNotFoundException.class);

                assertThat(baton.report()).containsEntry("registry",
                        "io.micrometer.core.instrument.simple.SimpleMeterRegistry").containsEntry("completed", 1.0);
            }
        }

        @Test
        void metricsAnswer404InOneLineNamingWhatToAdd() throws Exception {
            try (URLClassLoader host = HostClasspath.without(PROMETHEUS_JARS); Host baton = new Host(host)) {
                HttpResponse<String> metrics = get(baton, "/metrics");

                assertThat(metrics.statusCode()).isEqualTo(404);
                assertThat(metrics.body()).contains("io.micrometer:micrometer-registry-prometheus", "meterRegistry(")
                        .endsWith("\n").hasLineCount(1);
                assertThat(get(baton, "/health/ready").statusCode()).isEqualTo(200);
            }
        }
    }

    @Nested
    class WithoutTheChartLibrary {
        @Test
        void theOverviewIsServedWithItsChartAreaSayingTheLibraryIsMissing() throws Exception {
            try (URLClassLoader host = HostClasspath.without("uplot-"); Host baton = new Host(host)) {
                assertThat(host.getResource("META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.iife.min.js"))
                        .isNull();

                HttpResponse<String> overview = get(baton, "/");
                assertThat(overview.statusCode()).isEqualTo(200);
                assertThat(overview.body()).contains("<div id=\"chart\" class=\"message\">"
                        + StaticFiles.NO_CHART_LIBRARY + "</div>");
                assertThat(get(baton, "/dashboard/overview.js").statusCode()).isEqualTo(200);
                assertThat(get(baton, "/dashboard/queue.html").statusCode()).isEqualTo(200);
                assertThat(get(baton, CHART_SCRIPT).statusCode()).isEqualTo(404);
            }
        }
    }

    /** The same host with every jar: the chart area is empty (the chart fills it) and the metrics are served. */
    @Test
    void withBothTheMetricsAreServedAndTheChartAreaIsLeftToTheChart() throws Exception {
        try (URLClassLoader host = HostClasspath.without(); Host baton = new Host(host)) {
            HttpResponse<String> metrics = get(baton, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("baton_jobs_completed_total{queue=\"mail\"} 1.0");

            assertThat(get(baton, "/").body()).contains("<div id=\"chart\"></div>")
                    .doesNotContain(StaticFiles.NO_CHART_LIBRARY);
            assertThat(get(baton, CHART_SCRIPT).statusCode()).isEqualTo(200);
        }
    }

    private HttpResponse<String> get(Host baton, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + baton.report().get("port") + path))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * {@link AdminOfAHost}, loaded and run by the host's class loader, seen through JDK types. The host's loader is
     * the context class loader meanwhile, as an application's own is (ServiceLoader lookups go there), and so of the
     * threads Baton starts.
     */
    private static final class Host implements AutoCloseable {
        private final ClassLoader loader;
        private final Object admin;

        Host(ClassLoader loader) throws Exception {
            this.loader = loader;
            this.admin = inHost(() -> loader.loadClass(AdminOfAHost.class.getName()).getConstructor().newInstance());
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> report() throws Exception {
            return inHost(() -> ((Supplier<Map<String, Object>>) admin).get());
        }

        @Override
        public void close() throws Exception {
            inHost(() -> {
                ((AutoCloseable) admin).close();
                return null;
            });
        }

        private <T> T inHost(Callable<T> call) throws Exception {
            Thread thread = Thread.currentThread();
            ClassLoader own = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try {
                return call.call();
            } finally {
                thread.setContextClassLoader(own);
            }
        }
    }
}
