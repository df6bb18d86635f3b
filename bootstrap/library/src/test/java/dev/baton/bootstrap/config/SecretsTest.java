package dev.baton.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretsTest {

    @Test
    void masksPasswordsInRedisUris() {
        assertThat(Secrets.mask("redis://:pw@host:6379")).isEqualTo("redis://:****@host:6379");
        assertThat(Secrets.mask("rediss://user:p%40ss@host:6380/0")).isEqualTo("rediss://user:****@host:6380/0");
        assertThat(Secrets.mask("redis://host:6379")).isEqualTo("redis://host:6379");
    }

    @Test
    void masksPasswordParametersOfJdbcUrls() {
        assertThat(Secrets.mask("jdbc:postgresql://db/app?user=u&password=x y")).isEqualTo(
                "jdbc:postgresql://db/app?user=u&password=**** y");
        assertThat(Secrets.mask("jdbc:postgresql://db/app?password=abc&sslpassword=def")).isEqualTo(
                "jdbc:postgresql://db/app?password=****&sslpassword=****");
    }

    @Test
    void masksEveryUriInsideLongerText() {
        assertThat(Secrets.mask("cannot connect to redis://:a@h1:1 nor rediss://u:b@h2:2"))
                .isEqualTo("cannot connect to redis://:****@h1:1 nor rediss://u:****@h2:2");
    }

    @Test
    void findsTheRawSecrets() {
        assertThat(Secrets.find("redis://:pw1@h:1")).containsExactly("pw1");
        assertThat(Secrets.find("jdbc:postgresql://h/d?user=u&password=pw2")).containsExactly("pw2");
        assertThat(Secrets.find("redis://h:1")).isEmpty();
    }
}
