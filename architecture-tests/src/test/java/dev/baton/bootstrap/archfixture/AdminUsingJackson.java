package dev.baton.bootstrap.archfixture;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Breaks the Jackson rule: library code outside dev.baton.bootstrap.json that needs Jackson 2 itself. */
public final class AdminUsingJackson {
    private final ObjectMapper mapper = new ObjectMapper();

    public String write(Object value) throws Exception {
        return mapper.writeValueAsString(value);
    }
}
