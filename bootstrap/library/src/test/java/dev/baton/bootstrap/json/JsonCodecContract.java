package dev.baton.bootstrap.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What Baton needs of JSON, run against each Jackson: the same payload text from a record on either (a producer on
 * Spring Boot 3.5 and a worker on Boot 4 agree), the same strict binding and the same words when it fails, the same
 * trees for the admin API and the CLI.
 */
abstract class JsonCodecContract {
    enum Size {
        SMALL, LARGE;

        @Override
        public String toString() {
            return "a " + name().toLowerCase() + " parcel";
        }
    }

    record Item(String sku, int count) {
    }

    /** Its components out of alphabetical order, as Jackson 3 would sort them. */
    record Parcel(String zeta, int alpha, boolean express, Size size, List<Item> items) {
    }

    record Ship(String to, int grams, List<Item> items) {
        Ship {
            if (grams < 0) {
                throw new IllegalArgumentException("grams must not be negative");
            }
        }
    }

    /** A class rather than a record: Jackson 3 would sort its properties. */
    static final class Label {
        public String zone = "cold";
        public int aisle = 3;
    }

    private static final Parcel PARCEL = new Parcel("z-1", 1200, true, Size.LARGE, List.of(new Item("tea", 2)));
    private static final String PARCEL_JSON = "{\"zeta\":\"z-1\",\"alpha\":1200,\"express\":true,\"size\":\"LARGE\","
            + "\"items\":[{\"sku\":\"tea\",\"count\":2}]}";

    abstract JsonCodec codec();

    @Nested
    class Payloads {
        @Test
        void aPayloadIsWrittenInDeclarationOrderWithEnumsByName() {
            assertThat(codec().write(PARCEL)).isEqualTo(PARCEL_JSON);
            assertThat(codec().write(new Label())).isEqualTo("{\"zone\":\"cold\",\"aisle\":3}");
        }

        @Test
        void aPayloadBindsToItsRecordIgnoringUnknownFields() {
            String sent = "{\"express\": true, \"alpha\": 1200, \"note\": \"new\", \"zeta\": \"z-1\","
                    + " \"size\": \"LARGE\", \"items\": [{\"count\": 2, \"sku\": \"tea\"}]}";

            assertThat(codec().bind(sent, Parcel.class)).isEqualTo(PARCEL);
        }

        /** Jackson 2's default, which Jackson 3 is set back to: both bind the same payloads. */
        @Test
        void textAfterThePayloadIsIgnored() {
            assertThat(codec().bind(PARCEL_JSON + " and more", Parcel.class)).isEqualTo(PARCEL);
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                {"to":"z","grams":"abc","items":[]}                     | field 'grams': not a valid int ('abc')
                {"to":"z","items":[]}                                   | field 'grams': missing
                {"to":"z","grams":null,"items":[]}                      | field 'grams': null, but int cannot be null
                {"to":"z","grams":1,"items":[{"sku":"a","count":"2x"}]} | field 'items[0].count': not a valid int ('2x')
                {"to":"z","grams":-1,"items":[]}                        | refused by Ship (grams must not be negative)
                ship it                                                 | not JSON (Unrecognized token 'ship')
                """)
        void aPayloadThatDoesNotBindSaysWhereAndWhat(String payload, String problem) {
            assertThatThrownBy(() -> codec().bind(payload, Ship.class)).isInstanceOf(JsonException.class)
                    .hasMessage(problem);
        }

        @Test
        void aValueJacksonCannotWriteFailsNamingItsClass() {
            assertThatThrownBy(() -> codec().write(new Object())).isInstanceOf(JsonException.class)
                    .hasMessageStartingWith("cannot write Object as JSON: ");
        }
    }

    @Nested
    class Trees {
        @Test
        void jsonIsReadAsPlainJavaInDocumentOrder() {
            Object tree = codec().parse("{\"b\": 1, \"a\": [1.5, true, null, \"x\", 12345678901234567890],"
                    + " \"c\": {}}");

            Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("b", 1);
            expected.put("a", Arrays.asList(1.5, true, null, "x", new BigInteger("12345678901234567890")));
            expected.put("c", Map.of());
            assertThat(tree).isInstanceOfSatisfying(Map.class,
                    map -> assertThat(map).containsExactlyEntriesOf(expected));
        }

        @Test
        void aTreeIsWrittenCompactOrIndented() {
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("queue", "orders");
            tree.put("lag", null);
            tree.put("consumers", List.of(Map.of("name", "host-1")));

            assertThat(codec().write(tree))
                    .isEqualTo("{\"queue\":\"orders\",\"lag\":null,\"consumers\":[{\"name\":\"host-1\"}]}");
            assertThat(codec().writeIndented(tree).lines()).containsExactly(
                    "{",
                    "  \"queue\" : \"orders\",",
                    "  \"lag\" : null,",
                    "  \"consumers\" : [ {",
                    "    \"name\" : \"host-1\"",
                    "  } ]",
                    "}");
        }

        @Test
        void textThatIsNotJsonFailsWithJacksonsWords() {
            assertThatThrownBy(() -> codec().parse("{\"all\": tru}")).isInstanceOf(JsonException.class)
                    .hasMessageStartingWith("Unrecognized token 'tru'");
            assertThatThrownBy(() -> codec().parse("")).isInstanceOf(JsonException.class)
                    .hasMessageContaining("end-of-input");
        }
    }
}
