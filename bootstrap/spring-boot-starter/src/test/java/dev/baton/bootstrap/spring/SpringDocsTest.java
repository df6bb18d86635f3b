package dev.baton.bootstrap.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.bootstrap.config.GeneratedText;
import dev.baton.bootstrap.config.SettingsTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Keeps docs/SPRING.md's tables of properties in step with the properties the starter declares. */
class SpringDocsTest {
    private static final Path SPRING = Path.of("..", "..", "docs", "SPRING.md");

    @Test
    void theSettingsPropertiesTableIsTheDeclarations() throws IOException {
        GeneratedText.checkBetweenMarkers(SPRING, "properties",
                SettingsTable.spring(PropertyMetadataTest::springDefault));
    }

    /** The properties of the IDE metadata: a new one of the starter's own must be in the guide's tables. */
    @Test
    void everyBatonPropertyIsInTheSpringGuidesTables() throws IOException {
        String spring = Files.readString(SPRING);
        JsonNode metadata = new ObjectMapper().readTree(PropertyMetadataTest.METADATA.toFile());

        assertThat(metadata.get("properties")).hasSizeGreaterThan(20).allSatisfy(property ->
                assertThat(spring).contains("`" + property.get("name").asText() + "`"));
    }
}
