package dev.baton.bootstrap.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.bootstrap.config.Setting;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The configuration metadata IDEs complete {@code baton.*} from (META-INF/spring-configuration-metadata.json, the
 * processor's output merged with additional-spring-configuration-metadata.json): every property is described, and
 * every one with a default shows Baton's own, the default of the environment's setting of the same name.
 */
class PropertyMetadataTest {
    /** Settings whose default is no value the property could show: the application's DataSource, concurrency + 2. */
    private static final Set<String> NO_DEFAULT = Set.of("baton.jdbc-url", "baton.pool-size");
    private static final Map<String, Setting> SETTINGS = Arrays.stream(Setting.values())
            .collect(Collectors.toMap(setting -> "baton." + setting.flagName(), Function.identity()));

    @Test
    void everyPropertyIsDescribed() throws IOException {
        assertThat(properties()).hasSizeGreaterThan(20).allSatisfy(property ->
                assertThat(property.path("description").asText()).as(property.get("name").asText()).isNotBlank());
    }

    @Test
    void everyPropertyOfASettingWithADefaultShowsThatDefault() throws IOException {
        List<JsonNode> settingsProperties = properties().stream()
                .filter(property -> SETTINGS.containsKey(name(property)) && !NO_DEFAULT.contains(name(property)))
                .filter(property -> !SETTINGS.get(name(property)).defaultValue().isEmpty()).toList();

        assertThat(settingsProperties).hasSizeGreaterThan(15).allSatisfy(property ->
                assertThat(Optional.ofNullable(property.get("defaultValue")).map(JsonNode::asText)).as(name(property))
                        .hasValue(shown(SETTINGS.get(name(property)).defaultValue())));
    }

    /** The environment writes switches as on and off; a boolean property's default is true or false. */
    private static String shown(String settingDefault) {
        return switch (settingDefault) {
            case "on" -> "true";
            case "off" -> "false";
            default -> settingDefault;
        };
    }

    private static String name(JsonNode property) {
        return property.get("name").asText();
    }

    private static List<JsonNode> properties() throws IOException {
        JsonNode metadata = new ObjectMapper().readTree(
                Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json").toFile());
        return StreamSupport.stream(metadata.get("properties").spliterator(), false).toList();
    }
}
