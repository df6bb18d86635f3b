package dev.baton.bootstrap.json;

import dev.baton.bootstrap.config.ConfigException;
import java.util.function.Predicate;

/**
 * Chooses the codec by what the classpath has: Jackson 3 first, as a Spring Boot 4 application has it (and a Boot
 * 3.5 one may have it beside Jackson 2), then Jackson 2. A codec class is loaded only once its Jackson is known to
 * be there.
 */
final class JsonCodecs {
    static final String JACKSON_3 = "tools.jackson.databind.json.JsonMapper";
    static final String JACKSON_2 = "com.fasterxml.jackson.databind.json.JsonMapper";

    private JsonCodecs() {
    }

    /** Chosen on first use, so that a service that never touches JSON never needs Jackson. */
    private static final class Chosen {
        static final JsonCodec CODEC = choose(JsonCodecs::present);
    }

    static JsonCodec onClasspath() {
        return Chosen.CODEC;
    }

    /** @param present whether a class of this name can be loaded */
    static JsonCodec choose(Predicate<String> present) {
        if (present.test(JACKSON_3)) {
            return new Jackson3Codec();
        }
        if (present.test(JACKSON_2)) {
            return new Jackson2Codec();
        }
        throw new ConfigException("Baton reads and writes JSON with Jackson, and neither Jackson 3"
                + " (tools.jackson.core:jackson-databind) nor Jackson 2 (com.fasterxml.jackson.core:jackson-databind)"
                + " is on the classpath: add one (in Spring Boot, spring-boot-starter-jackson on Boot 4,"
                + " spring-boot-starter-json on Boot 3.5)");
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, JsonCodecs.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
