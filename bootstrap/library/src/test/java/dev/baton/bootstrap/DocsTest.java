package dev.baton.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.config.GeneratedText;
import dev.baton.bootstrap.config.SettingsTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keeps docs/OPERATIONS.md, docs/HANDLERS.md and docs/SPRING.md in step with the code they describe. */
class DocsTest {
    private static final Path DOCS = Path.of("..", "..", "docs");
    /** The schedules file OPERATIONS.md shows, read by {@code SchedulesFileTest}. */
    static final Path SCHEDULES_EXAMPLE = Path.of("src", "test", "resources", "schedules", "example.schedules");
    private static final Path EXAMPLES = Path.of("src", "test", "java", "dev", "baton", "bootstrap", "examples");
    private static final Path TEST_RESOURCES = Path.of("src", "test", "resources");

    @Test
    void theConfigurationTableIsTheDeclarations() throws IOException {
        GeneratedText.checkBetweenMarkers(DOCS.resolve("OPERATIONS.md"), "settings", SettingsTable.operations());
    }

    @Test
    void everyCommandIsDocumented() throws IOException {
        String operations = Files.readString(DOCS.resolve("OPERATIONS.md"));

        assertThat(operations).contains("### `baton dev", "### `baton worker", "### `baton enqueue", "### `baton stats",
                "### `baton job", "### `baton cancel", "### `baton dlq", "### `baton queue", "### `baton schedule list",
                "`baton migrate`", "`baton trim --queue Q`", "`baton config`");
    }

    @Test
    void theOperationsGuideShowsTheTestedSchedulesFileVerbatim() throws IOException {
        String operations = Files.readString(DOCS.resolve("OPERATIONS.md"));

        assertThat(operations).contains(Files.readString(SCHEDULES_EXAMPLE));
    }

    @Test
    void theHandlerGuideShowsTheTestedExamplesVerbatim() throws IOException {
        String handlers = Files.readString(DOCS.resolve("HANDLERS.md"));

        for (String example : List.of("ShipOrderHandler.java", "ShopHandlers.java", "OrderProducer.java",
                "ShopApplication.java", "ShippingJobs.java", "ReceiptHandler.java", "ReceiptHandlerTest.java",
                "ShopSchedules.java", "PickupHandler.java", "PickupHandlerTest.java",
                "OrderOutbox.java", "DigestJobs.java")) {
            assertThat(handlers).as(example).contains(Files.readString(EXAMPLES.resolve(example)));
        }
        assertThat(handlers).contains(Files.readString(
                Path.of("src", "test", "resources", "db", "shop", "V1__shop_shipments.sql")));
    }

    @Test
    void theTracingSectionShowsTheTestedExampleVerbatim() throws IOException {
        String operations = Files.readString(DOCS.resolve("OPERATIONS.md"));

        assertThat(operations).contains(Files.readString(EXAMPLES.resolve("TracedShipping.java")));
    }

    @Test
    void theSpringGuideShowsTheTestedExamplesVerbatim() throws IOException {
        String spring = Files.readString(DOCS.resolve("SPRING.md"));

        assertThat(spring).contains(Files.readString(EXAMPLES.resolve("InvoiceJobs.java")),
                Files.readString(TEST_RESOURCES.resolve(Path.of("examples", "application.yml"))),
                Files.readString(TEST_RESOURCES.resolve(Path.of("db", "invoices", "V1__invoices.sql"))));
    }
}
