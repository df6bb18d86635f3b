package dev.baton.bootstrap.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.bootstrap.config.GeneratedText;
import dev.baton.bootstrap.config.Setting;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The configuration metadata IDEs complete {@code baton.*} from (META-INF/spring-configuration-metadata.json): one
 * property per setting, with its description and default, and the starter's own properties. The file is checked in
 * and must be what the declarations give.
 */
class PropertyMetadataTest {
    static final Path METADATA = Path.of("src", "main", "resources", "META-INF", "spring-configuration-metadata.json");
    /** The Java type IDEs see for each type of setting: what Spring reads the property as. */
    private static final Map<String, String> TYPES = Map.of("List<String>", "java.util.List<java.lang.String>",
            "Integer", "java.lang.Integer", "Duration", "java.time.Duration", "Boolean", "java.lang.Boolean");

    @Test
    void theMetadataIsTheDeclarations() throws IOException {
        GeneratedText.check(METADATA, generated());
    }

    @Test
    void everyPropertyIsDescribed() throws IOException {
        assertThat(properties()).hasSizeGreaterThan(20).allSatisfy(property ->
                assertThat(property.path("description").asText()).as(property.get("name").asText()).isNotBlank());
    }

    /** The default of a property as Spring shows it: switches as true or false, none for the application's pool. */
    static String springDefault(Setting<?> setting) {
        if (setting == Setting.JDBC_URL) {
            return ""; // the application's DataSource, when there is one
        }
        return switch (setting.defaultText()) {
            case "on" -> "true";
            case "off" -> "false";
            default -> setting.defaultText();
        };
    }

    private static String generated() throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode metadata = json.createObjectNode();
        ArrayNode groups = metadata.putArray("groups");
        groups.addObject().put("name", "baton");
        groups.addObject().put("name", "baton.worker");
        ArrayNode properties = metadata.putArray("properties");
        for (Setting<?> setting : Setting.all()) {
            ObjectNode property = properties.addObject().put("name", PropertySettings.PREFIX + setting.flagName())
                    .put("type", TYPES.getOrDefault(setting.type().javaName(), "java.lang.String"))
                    .put("description", setting.description());
            if (!springDefault(setting).isEmpty()) {
                property.put("defaultValue", springDefault(setting));
            }
        }
        for (OwnProperty own : OwnProperty.values()) {
            ObjectNode property = properties.addObject().put("name", own.property).put("type", own.type)
                    .put("description", own.description);
            if (!own.defaultValue.isEmpty()) {
                property.put("defaultValue", own.defaultValue);
            }
        }
        return json.writerWithDefaultPrettyPrinter().writeValueAsString(metadata) + "\n";
    }

    private static List<JsonNode> properties() throws IOException {
        JsonNode metadata = new ObjectMapper().readTree(METADATA.toFile());
        return StreamSupport.stream(metadata.get("properties").spliterator(), false).toList();
    }
}
