package dev.baton.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingTest {
    @Test
    void everyConstantIsListedUnderItsOwnName() throws IllegalAccessException {
        List<Field> constants = Arrays.stream(Setting.class.getFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == Setting.class).toList();

        assertThat(constants).hasSameSizeAs(Setting.all());
        for (Field constant : constants) {
            Setting<?> setting = (Setting<?>) constant.get(null);
            assertThat(setting.name()).isEqualTo(constant.getName());
            assertThat(Setting.all()).contains(setting);
        }
    }

    @Test
    void aValueGivenInCodeObeysTheRuleItsTextObeys() {
        assertThatThrownBy(() -> Setting.CONCURRENCY.read("0")).hasMessage("must be in 1..10000");
        assertThatThrownBy(() -> Setting.CONCURRENCY.accept(0)).hasMessage("must be in 1..10000");
        assertThat(Setting.POOL_SIZE.read("auto")).isEmpty();
        assertThat(Setting.POOL_SIZE.accept(Optional.of(12))).contains(12);
    }

    @Test
    void aPasswordIsNeverShown() {
        assertThat(Setting.ADMIN_OPERATOR_PASSWORD.display("s3cret")).isEqualTo(Secrets.MASK);
        assertThat(Setting.JDBC_URL.display("jdbc:postgresql://db/app?user=app&password=pw"))
                .isEqualTo("jdbc:postgresql://db/app?user=app&password=****");
        assertThat(Setting.SCHEMA.display("shop")).isEqualTo("shop");
    }
}
