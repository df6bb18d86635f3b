package dev.baton.bootstrap.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.bootstrap.config.ConfigException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which Jackson Baton uses: the application's, Jackson 3 first. */
class JsonCodecsTest {
    @Test
    void jackson3IsChosenWhenTheClasspathHasIt() {
        assertThat(JsonCodecs.choose(Set.of(JsonCodecs.JACKSON_3, JsonCodecs.JACKSON_2)::contains))
                .isInstanceOf(Jackson3Codec.class);
        assertThat(JsonCodecs.choose(Set.of(JsonCodecs.JACKSON_3)::contains)).isInstanceOf(Jackson3Codec.class);
        assertThat(JsonCodec.onClasspath()).as("this module's tests have both").isInstanceOf(Jackson3Codec.class);
    }

    @Test
    void jackson2IsChosenWithoutJackson3() {
        assertThat(JsonCodecs.choose(Set.of(JsonCodecs.JACKSON_2)::contains)).isInstanceOf(Jackson2Codec.class);
    }

    @Test
    void withoutJacksonTheErrorSaysWhatToAdd() {
        assertThatThrownBy(() -> JsonCodecs.choose(name -> false)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("tools.jackson.core:jackson-databind")
                .hasMessageContaining("com.fasterxml.jackson.core:jackson-databind")
                .hasMessageContaining("spring-boot-starter-jackson");
    }

    @Test
    void theClassNamesAreJacksonsMappers() {
        assertThat(JsonCodecs.JACKSON_3).isEqualTo(tools.jackson.databind.json.JsonMapper.class.getName());
        assertThat(JsonCodecs.JACKSON_2).isEqualTo(com.fasterxml.jackson.databind.json.JsonMapper.class.getName());
    }
}
