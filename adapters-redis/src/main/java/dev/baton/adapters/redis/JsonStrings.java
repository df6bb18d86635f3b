package dev.baton.adapters.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON array of strings: the delayed-set member format, which the promote script decodes with Redis' built-in
 * cjson. Only what that format needs, so no JSON library is pulled into the adapter.
 */
final class JsonStrings {
    private JsonStrings() {
    }

    static String encode(List<String> values) {
        StringBuilder json = new StringBuilder(64);
        json.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            quote(values.get(i), json);
        }
        return json.append(']').toString();
    }

    private static void quote(String value, StringBuilder json) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }

    /** @throws IllegalArgumentException when {@code json} is not an array of strings */
    static List<String> decode(String json) {
        Parser parser = new Parser(json);
        List<String> values = parser.array();
        parser.skipSpace();
        if (!parser.atEnd()) {
            throw parser.error("text after the array");
        }
        return values;
    }

    private static final class Parser {
        private final String json;
        private int pos;

        Parser(String json) {
            this.json = json;
        }

        List<String> array() {
            skipSpace();
            expect('[');
            List<String> values = new ArrayList<>();
            skipSpace();
            if (peek() == ']') {
                pos++;
                return values;
            }
            while (true) {
                skipSpace();
                values.add(string());
                skipSpace();
                char c = next();
                if (c == ']') {
                    return values;
                }
                if (c != ',') {
                    throw error("',' or ']' expected");
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder value = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return value.toString();
                }
                if (c != '\\') {
                    value.append(c);
                    continue;
                }
                char escape = next();
                switch (escape) {
                    case '"', '\\', '/' -> value.append(escape);
                    case 'b' -> value.append('\b');
                    case 'f' -> value.append('\f');
                    case 'n' -> value.append('\n');
                    case 'r' -> value.append('\r');
                    case 't' -> value.append('\t');
                    case 'u' -> {
                        if (pos + 4 > json.length()) {
                            throw error("truncated \\u escape");
                        }
                        try {
                            value.append((char) Integer.parseInt(json.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException e) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + escape);
                }
            }
        }

        void skipSpace() {
            while (pos < json.length() && Character.isWhitespace(json.charAt(pos))) {
                pos++;
            }
        }

        boolean atEnd() {
            return pos >= json.length();
        }

        private char peek() {
            if (atEnd()) {
                throw error("unexpected end");
            }
            return json.charAt(pos);
        }

        private char next() {
            char c = peek();
            pos++;
            return c;
        }

        private void expect(char expected) {
            if (next() != expected) {
                throw error("'" + expected + "' expected");
            }
        }

        IllegalArgumentException error(String problem) {
            return new IllegalArgumentException("not a JSON array of strings at " + pos + ": " + problem);
        }
    }
}
