package dev.baton.bootstrap.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StaticFilesTest {

    @Test
    void pathsMapToTheDashboardsResourcesOrTheWebJars() {
        assertThat(StaticFiles.resolve("/")).contains(new StaticFiles.Resource(StaticFiles.ROOT + "index.html",
                "text/html; charset=utf-8", "no-cache"));
        assertThat(StaticFiles.resolve("/dashboard/dead.js")).contains(new StaticFiles.Resource(
                StaticFiles.ROOT + "dead.js", "text/javascript; charset=utf-8", "no-cache"));
        assertThat(StaticFiles.resolve("/dashboard/webjars/uplot/1.6.30/dist/uPlot.min.css")).contains(
                new StaticFiles.Resource("META-INF/resources/webjars/uplot/1.6.30/dist/uPlot.min.css",
                        "text/css; charset=utf-8", "public, max-age=86400"));
    }

    @Test
    void traversalOddNamesAndUnknownTypesNameNothing() {
        for (String path : new String[] {"/dashboard/../x.html", "/dashboard/a/../../x.html", "/dashboard/.x.js",
                "/dashboard/a//b.js", "/dashboard/", "/dashboard/x.class", "/dashboard/x", "/x.html",
                "/dashboard/webjars/../../Baton.class", "/dashboard/a\\b.js", "/dashboard/a..b/c.js"}) {
            assertThat(StaticFiles.resolve(path)).as(path).isEmpty();
        }
    }
}
