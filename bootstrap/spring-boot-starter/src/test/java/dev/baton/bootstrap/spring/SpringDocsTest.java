package dev.baton.bootstrap.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Keeps docs/SPRING.md's table of properties in step with the properties the starter declares. */
class SpringDocsTest {
    private static final Path DOCS = Path.of("..", "..", "docs");

    /** The properties as the configuration processor found them: a new one must be in the guide's table. */
    @Test
    void everyBatonPropertyIsInTheSpringGuidesTable() throws IOException {
        String spring = Files.readString(DOCS.resolve("SPRING.md"));
        JsonNode metadata = new ObjectMapper().readTree(
                Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json").toFile());

        assertThat(metadata.get("properties")).hasSizeGreaterThan(20).allSatisfy(property ->
                assertThat(spring).contains("`" + property.get("name").asText() + "`"));
    }
}
